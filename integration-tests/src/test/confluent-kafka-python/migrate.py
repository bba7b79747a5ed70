"""KIP-848's online migration with librdkafka: a classic group of two consumers is upgraded when a third with
group.protocol=consumer joins, and downgraded when it leaves.

Prints one JSON line: the records read in all (each counted once), how often a partition was held by two consumers
at once (it must be never), the group's type as the admin client describes it before, during and after, and the
partitions each consumer held at the end of each stage.
"""
import json
import sys
import time

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

PARTITIONS = 4


def consumer(bootstrap, group, protocol):
    config = {'bootstrap.servers': bootstrap, 'group.id': group, 'group.protocol': protocol,
              'auto.offset.reset': 'earliest', 'enable.auto.commit': True, 'auto.commit.interval.ms': 200}
    if protocol == 'classic':
        config['heartbeat.interval.ms'] = 300
    c = Consumer(config)
    c.subscribe([group])
    return c


def held(c):
    return {tp.partition for tp in c.assignment()}


class Run:
    def __init__(self, bootstrap, group):
        self.bootstrap, self.group = bootstrap, group
        self.admin = AdminClient({'bootstrap.servers': bootstrap})
        self.producer = Producer({'bootstrap.servers': bootstrap})
        self.produced = 0
        self.seen = set()
        self.both_held = 0

    def produce(self, count):
        for _ in range(count):
            self.producer.produce(self.group, value=str(self.produced).encode(),
                                  partition=self.produced % PARTITIONS)
            self.produced += 1
        self.producer.flush()

    def poll_until_spread(self, consumers):
        """Polls until every record was read and the consumers hold every partition, each at least one."""
        deadline = time.time() + 90
        while time.time() < deadline:
            for c in consumers:
                message = c.poll(0.05)
                if message is not None and not message.error():
                    self.seen.add(message.value())
            holdings = [held(c) for c in consumers]
            for i, a in enumerate(holdings):
                for b in holdings[i + 1:]:
                    if a & b:
                        self.both_held += 1
            if (len(self.seen) == self.produced and sum(len(h) for h in holdings) == PARTITIONS
                    and all(holdings)):
                return [len(h) for h in holdings]
        sys.exit('timed out: read %d of %d, held %s' % (len(self.seen), self.produced,
                                                        [sorted(held(c)) for c in consumers]))

    def group_type(self):
        return self.admin.describe_consumer_groups([self.group])[self.group].result().type.name.lower()


def main(bootstrap, group):
    run = Run(bootstrap, group)
    for future in run.admin.create_topics([NewTopic(group, PARTITIONS, 1)]).values():
        future.result()
    a, b = consumer(bootstrap, group, 'classic'), consumer(bootstrap, group, 'classic')
    run.produce(40)
    spreads = [run.poll_until_spread([a, b])]
    types = [run.group_type()]

    modern = consumer(bootstrap, group, 'consumer')
    run.produce(40)
    spreads.append(run.poll_until_spread([a, b, modern]))
    types.append(run.group_type())

    modern.close()
    run.produce(40)
    spreads.append(run.poll_until_spread([a, b]))
    types.append(run.group_type())
    a.close()
    b.close()
    print(json.dumps({'read': len(run.seen), 'both_held': run.both_held, 'types': types,
                      'ends': [sorted(s) for s in spreads]}, sort_keys=True))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: migrate.py BOOTSTRAP GROUP')
    main(sys.argv[1], sys.argv[2])
