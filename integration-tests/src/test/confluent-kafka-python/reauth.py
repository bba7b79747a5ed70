# confluent-kafka for Python (librdkafka 2.16) re-authenticating on its connections (KIP-368), run by
# ConfluentKafkaPythonSmokeTest against a SASL_PLAINTEXT listener whose sessions are short:
#
#   python3 reauth.py <bootstrap servers> <topic> <user> <password>
#
# An idempotent producer signs in with SASL/PLAIN and produces until librdkafka has re-authenticated a connection
# twice (it logs "Auth in state REAUTH" each time) or TIMEOUT passes, then flushes. Prints one JSON line: whether
# it re-authenticated twice, the delivery errors (none expected), and whether every record was delivered.
import json
import logging
import sys
import time

from confluent_kafka import Producer

TIMEOUT = 40


class Reauthentications(logging.Handler):
    def __init__(self):
        super().__init__()
        self.count = 0

    def emit(self, record):
        if 'Auth in state REAUTH' in record.getMessage():
            self.count += 1


def main(bootstrap, topic, user, password):
    seen = Reauthentications()
    logger = logging.getLogger('librdkafka')
    logger.addHandler(seen)
    logger.setLevel(logging.DEBUG)
    producer = Producer({'bootstrap.servers': bootstrap, 'security.protocol': 'SASL_PLAINTEXT',
                         'sasl.mechanisms': 'PLAIN', 'sasl.username': user, 'sasl.password': password,
                         'enable.idempotence': True, 'debug': 'security', 'logger': logger})
    errors = []
    delivered = []
    produced = 0
    deadline = time.monotonic() + TIMEOUT
    while seen.count < 2 and time.monotonic() < deadline:
        producer.produce(topic, value=b'v%d' % produced,
                         on_delivery=lambda err, msg: errors.append(str(err)) if err else delivered.append(1))
        produced += 1
        producer.poll(0.1)
    remaining = producer.flush(TIMEOUT)
    print(json.dumps({
        'reauthenticated_twice': seen.count >= 2,
        'errors': errors,
        'all_delivered': remaining == 0 and len(delivered) == produced,
    }, sort_keys=True))


if __name__ == '__main__':
    main(*sys.argv[1:5])
