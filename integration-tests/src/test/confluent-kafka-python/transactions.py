# confluent-kafka for Python's (librdkafka's) transactional paths against the broker, run by
# ConfluentKafkaPythonSmokeTest:
#
#   python3 transactions.py <bootstrap servers> <input topic> <output topic>
#
# A transactional producer writes 'c0'..'c4' and commits, then 'a0'..'a4' and aborts; then a
# consume-transform-produce step: a group consumer reads the committed input and the producer writes each value
# upper-cased to the output topic with send_offsets_to_transaction, and commits. A read_committed consumer reads
# both topics back. Prints one JSON line for the Java test; any error ends it with a non-zero exit.
import json
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

GROUP = 'confluent-kafka-python-txn-group'
# Every wait below gives up after this long instead of hanging; the Java test kills the program after two minutes.
TIMEOUT = 30


def main(bootstrap, source, sink):
    client = {'bootstrap.servers': bootstrap}
    admin = AdminClient(dict(client))
    for future in admin.create_topics([NewTopic(t, num_partitions=1, replication_factor=1) for t in (source, sink)],
                                      operation_timeout=TIMEOUT).values():
        future.result()

    producer = Producer(dict(client, **{'transactional.id': 'confluent-kafka-python-txn'}))
    producer.init_transactions(TIMEOUT)
    transaction(producer, lambda: [producer.produce(source, value='c%d' % i) for i in range(5)], commit=True)
    transaction(producer, lambda: [producer.produce(source, value='a%d' % i) for i in range(5)], commit=False)

    consumer = Consumer(dict(client, **{'group.id': GROUP, 'auto.offset.reset': 'earliest',
                                        'enable.auto.commit': False, 'isolation.level': 'read_committed'}))
    try:
        consumer.subscribe([source])
        inputs = read(consumer, 5)
        producer.begin_transaction()
        for value in inputs:
            producer.produce(sink, value=value.upper())
        producer.send_offsets_to_transaction(consumer.position(consumer.assignment()),
                                             consumer.consumer_group_metadata(), TIMEOUT)
        producer.commit_transaction(TIMEOUT)
        committed = consumer.committed([TopicPartition(source, 0)], timeout=TIMEOUT)[0].offset
    finally:
        consumer.close()

    print(json.dumps({
        'source_read_committed': read_all(client, source, 'read_committed'),
        'source_read_uncommitted': read_all(client, source, 'read_uncommitted'),
        'sink_read_committed': read_all(client, sink, 'read_committed'),
        'group_committed': committed,
    }, sort_keys=True))


def transaction(producer, produce, commit):
    producer.begin_transaction()
    produce()
    if commit:
        producer.commit_transaction(TIMEOUT)
    else:
        producer.flush(TIMEOUT)  # the records reach the log before the abort marker
        producer.abort_transaction(TIMEOUT)


def read(consumer, count):
    values = []
    deadline = time.monotonic() + TIMEOUT
    while len(values) < count:
        if time.monotonic() > deadline:
            raise RuntimeError('timed out after %d records: %s' % (len(values), values))
        msg = consumer.poll(1.0)
        if msg is None:
            continue
        if msg.error():
            raise KafkaException(msg.error())
        values.append(msg.value().decode())
    return values


def read_all(client, topic, isolation):
    """Every record of partition 0 up to the end the consumer sees, in order."""
    consumer = Consumer(dict(client, **{'group.id': 'reader-' + isolation, 'isolation.level': isolation,
                                        'enable.partition.eof': True, 'enable.auto.commit': False}))
    try:
        consumer.assign([TopicPartition(topic, 0, 0)])
        values = []
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == -191:  # _PARTITION_EOF: caught up
                    return values
                raise KafkaException(msg.error())
            values.append(msg.value().decode())
        raise RuntimeError('no end of %s after %d s: %s' % (topic, TIMEOUT, values))
    finally:
        consumer.close()


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit('usage: transactions.py <bootstrap servers> <input topic> <output topic>')
    main(*sys.argv[1:])
