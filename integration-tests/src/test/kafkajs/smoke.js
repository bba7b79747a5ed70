// kafkajs, a client that shares no code with Kafka's Java client or librdkafka, against the broker:
// admin (create, metadata), an idempotent gzip producer, a group consumer, and the group's committed offsets.
// Prints one JSON line for the Java test to check; exits non-zero on any failure.
const { Kafka, CompressionTypes, logLevel } = require('kafkajs');

// A user name and password, when given, are sent with SASL/PLAIN.
const [bootstrap, topic, username, password] = process.argv.slice(2);
const sasl = username === undefined ? undefined : { mechanism: 'plain', username, password };
const kafka = new Kafka({ clientId: 'kafkajs-smoke', brokers: [bootstrap], sasl, logLevel: logLevel.ERROR });
const COUNT = 10;

async function main() {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
  const metadata = await admin.fetchTopicMetadata({ topics: [topic] });

  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const messages = Array.from({ length: COUNT }, (_, i) => ({ key: 'k' + i, value: 'v' + i }));
  await producer.send({ topic, compression: CompressionTypes.GZIP, messages });
  await producer.disconnect();

  const consumer = kafka.consumer({ groupId: 'kafkajs-group' });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const values = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out after ' + values.length + ' records')), 30000);
    consumer.run({
      eachMessage: async ({ message }) => {
        values.push(message.value.toString());
        if (values.length === COUNT) {
          clearTimeout(timer);
          resolve();
        }
      },
    }).catch(reject);
  });
  await consumer.disconnect(); // commits what was consumed

  const offsets = await admin.fetchOffsets({ groupId: 'kafkajs-group', topics: [topic] });
  await admin.disconnect();
  const committed = offsets[0].partitions.reduce((sum, p) => sum + Number(p.offset), 0);
  console.log(JSON.stringify({ partitions: metadata.topics[0].partitions.length, values: values.sort(), committed }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
