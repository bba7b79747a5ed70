// kafkajs's transactional paths against the broker, run by KafkajsSmokeTest:
//
//   node transactions.js <bootstrap servers> <input topic> <output topic>
//
// A transactional producer sends 'c0'..'c4' and commits, then 'a0'..'a4' and aborts; a group consumer with
// readUncommitted: false reads the input, and a second transaction writes each value upper-cased to the output
// topic and commits the group's offset with sendOffsets. Consumers read both topics back with readUncommitted
// false and true. Prints one JSON line for the Java test; exits non-zero on any failure.
const { Kafka, logLevel } = require('kafkajs');

const [bootstrap, source, sink] = process.argv.slice(2);
const kafka = new Kafka({ clientId: 'kafkajs-transactions', brokers: [bootstrap], logLevel: logLevel.ERROR });
const GROUP = 'kafkajs-txn-group';
const TIMEOUT = 30000;

async function main() {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: source }, { topic: sink }], waitForLeaders: true });

  const producer = kafka.producer({ transactionalId: 'kafkajs-txn', idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const values = (prefix) => Array.from({ length: 5 }, (_, i) => ({ value: prefix + i }));
  let txn = await producer.transaction();
  await txn.send({ topic: source, messages: values('c') });
  await txn.commit();
  txn = await producer.transaction();
  await txn.send({ topic: source, messages: values('a') });
  await txn.abort();

  const inputs = await read(GROUP, source, false, 5);
  txn = await producer.transaction();
  await txn.send({ topic: sink, messages: inputs.values.map((value) => ({ value: value.toUpperCase() })) });
  await txn.sendOffsets({ consumerGroupId: GROUP, topics: [{ topic: source, partitions: [
    { partition: 0, offset: String(inputs.next) }] }] });
  await txn.commit();
  await producer.disconnect();

  const committed = await admin.fetchOffsets({ groupId: GROUP, topics: [source] });
  const result = {
    source_read_committed: (await read('reader-committed', source, false, 5)).values,
    source_read_uncommitted: (await read('reader-uncommitted', source, true, 10)).values,
    sink_read_committed: (await read('reader-sink', sink, false, 5)).values,
    group_committed: Number(committed[0].partitions[0].offset),
  };
  await admin.disconnect();
  console.log(JSON.stringify(result));
}

// Reads partition 0 from the start with a group consumer that commits nothing, until at least `count` records (whole
// batches: a record that should not be there shows up beside the expected ones). Returns the values and the next
// offset.
async function read(groupId, topic, readUncommitted, count) {
  const consumer = kafka.consumer({ groupId, readUncommitted, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const values = [];
  let next = 0;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(topic + ': timed out after ' + values)), TIMEOUT);
    consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          values.push(message.value.toString());
          next = Number(message.offset) + 1;
        }
        if (values.length >= count) {
          clearTimeout(timer);
          resolve();
        }
      },
    }).catch(reject);
  });
  await consumer.disconnect();
  return { values, next };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
