package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// consumeInSession reads every partition of topic from its start without a group, as franz-go fetches: in an
// incremental fetch session (KIP-227) unless told not to. It reads the records already there (first), then produces
// one more to each of the first five partitions and reads those as well, which an incremental session's answers
// must carry, and prints how many records it read.
func consumeInSession(bootstrap, topic string, partitions, first int) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	offsets := map[int32]kgo.Offset{}
	for p := 0; p < partitions; p++ {
		offsets[int32(p)] = kgo.NewOffset().AtStart()
	}
	consumer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.ClientID("franz-sessions"),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: offsets}))
	if err != nil {
		fail("consumer: %v", err)
	}
	defer consumer.Close()
	read := pollUntil(ctx, consumer, first)
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		fail("producer: %v", err)
	}
	defer producer.Close()
	for p := 0; p < 5; p++ {
		record := &kgo.Record{Topic: topic, Partition: int32(p), Value: []byte("late-" + strconv.Itoa(p))}
		if err := producer.ProduceSync(ctx, record).FirstErr(); err != nil {
			fail("produce: %v", err)
		}
	}
	read += pollUntil(ctx, consumer, 5)
	fmt.Printf("read=%d\n", read)
}

func pollUntil(ctx context.Context, consumer *kgo.Client, count int) int {
	read := 0
	for read < count {
		fetches := consumer.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			fail("read %d of %d: %v", read, count, err)
		}
		fetches.EachError(func(topic string, partition int32, err error) {
			fail("fetch %s-%d: %v", topic, partition, err)
		})
		read += fetches.NumRecords()
	}
	return read
}
