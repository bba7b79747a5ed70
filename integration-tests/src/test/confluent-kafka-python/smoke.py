# confluent-kafka for Python (librdkafka underneath, newer than kcat's) against the broker, run by
# ConfluentKafkaPythonSmokeTest:
#
#   python3 smoke.py <bootstrap servers> <topic> [<librdkafka setting>=<value> ...]
#
# The settings after the topic go to every client (security.protocol=ssl, ssl.ca.location=... for a TLS listener).
#
# The admin client creates the topic, lists every topic (librdkafka's all-topics Metadata request), describes
# the topic and the cluster; an idempotent producer writes lz4-compressed records; a group consumer subscribes,
# consumes them all and commits synchronously; the group's committed offsets are read back. Prints one JSON line
# of what it saw for the Java test to check; any error ends it with a non-zero exit and the error on stderr.
import json
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer, TopicCollection, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

COUNT = 10
PARTITIONS = 2
GROUP = 'confluent-kafka-python-group'
# Every wait below gives up after this long instead of hanging; the Java test kills the program after a minute.
TIMEOUT = 30


def main(client, topic):
    admin = AdminClient(dict(client))
    for future in admin.create_topics([NewTopic(topic, num_partitions=PARTITIONS, replication_factor=1)],
                                      operation_timeout=TIMEOUT).values():
        future.result()
    listed = admin.list_topics(timeout=TIMEOUT)
    described = admin.describe_topics(TopicCollection([topic]), request_timeout=TIMEOUT)[topic].result()
    cluster = admin.describe_cluster(request_timeout=TIMEOUT).result()

    produce(client, topic)
    values, committed = consume(client, topic)

    print(json.dumps({
        'listed': topic in listed.topics,
        'listed_partitions': len(listed.topics[topic].partitions),
        'listed_brokers': len(listed.brokers),
        'described_partitions': len(described.partitions),
        'cluster_nodes': len(cluster.nodes),
        'controller_is_a_node': cluster.controller is not None
                                and cluster.controller.id in [node.id for node in cluster.nodes],
        'values': sorted(values),
        'committed': committed,
    }, sort_keys=True))


def produce(client, topic):
    errors = []

    def delivered(err, _msg):
        if err is not None:
            errors.append(err)

    producer = Producer(dict(client, **{'enable.idempotence': True, 'compression.type': 'lz4'}))
    for i in range(COUNT):
        producer.produce(topic, key='k%d' % i, value='v%d' % i, on_delivery=delivered)
    if producer.flush(TIMEOUT) != 0:
        raise RuntimeError('records still undelivered after %d s' % TIMEOUT)
    if errors:
        raise RuntimeError('delivery failed: %s' % errors)


def consume(client, topic):
    consumer = Consumer(dict(client, **{'group.id': GROUP, 'auto.offset.reset': 'earliest',
                                        'enable.auto.commit': False}))
    try:
        consumer.subscribe([topic])
        values = []
        deadline = time.monotonic() + TIMEOUT
        while len(values) < COUNT:
            if time.monotonic() > deadline:
                raise RuntimeError('timed out after %d records' % len(values))
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                raise KafkaException(msg.error())
            values.append(msg.value().decode())
        consumer.commit(asynchronous=False)
        offsets = consumer.committed([TopicPartition(topic, p) for p in range(PARTITIONS)], timeout=TIMEOUT)
        return values, sum(tp.offset for tp in offsets)
    finally:
        consumer.close()


if __name__ == '__main__':
    if len(sys.argv) < 3 or any('=' not in setting for setting in sys.argv[3:]):
        sys.exit('usage: smoke.py <bootstrap servers> <topic> [<librdkafka setting>=<value> ...]')
    main(dict([('bootstrap.servers', sys.argv[1])] + [setting.split('=', 1) for setting in sys.argv[3:]]),
         sys.argv[2])
