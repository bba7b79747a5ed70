"""KIP-848 with librdkafka: consumers with group.protocol=consumer join a group, share its partitions, commit.

Prints one JSON line: how many records the first consumer read alone, the partitions each held once a second one
had joined, how often a partition was held by both at once (it must be never), the offsets committed, and the
group's type as the admin client describes it.
"""
import json
import sys
import time

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

PARTITIONS = 4
RECORDS = 40


def consumer(bootstrap, group):
    c = Consumer({'bootstrap.servers': bootstrap, 'group.id': group, 'group.protocol': 'consumer',
                  'auto.offset.reset': 'earliest', 'enable.auto.commit': False})
    c.subscribe([group])
    return c


def held(c):
    return {tp.partition for tp in c.assignment()}


def main(bootstrap, group):
    admin = AdminClient({'bootstrap.servers': bootstrap})
    for future in admin.create_topics([NewTopic(group, PARTITIONS, 1)]).values():
        future.result()
    producer = Producer({'bootstrap.servers': bootstrap})
    for i in range(RECORDS):
        producer.produce(group, value=str(i).encode(), partition=i % PARTITIONS)
    producer.flush()

    first = consumer(bootstrap, group)
    seen = set()
    deadline = time.time() + 60
    while len(seen) < RECORDS and time.time() < deadline:
        message = first.poll(0.2)
        if message is not None and not message.error():
            seen.add(message.value())
    first.commit(asynchronous=False)

    second = consumer(bootstrap, group)
    both_held = 0
    deadline = time.time() + 60
    while time.time() < deadline:
        first.poll(0.1)
        second.poll(0.1)
        if held(first) & held(second):
            both_held += 1
        if len(held(first)) == PARTITIONS // 2 and len(held(second)) == PARTITIONS // 2:
            break
    split = [len(held(first)), len(held(second))]
    committed = sum(tp.offset for tp in first.committed(
        [tp for tp in first.assignment()] + [tp for tp in second.assignment()], timeout=10))
    second.close()
    first.close()
    described = admin.describe_consumer_groups([group])[group].result()
    print(json.dumps({'read': len(seen), 'split': split, 'both_held': both_held, 'committed': committed,
                      'type': described.type.name.lower()}, sort_keys=True))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: kip848.py BOOTSTRAP GROUP')
    main(sys.argv[1], sys.argv[2])
