// A smoke test of minibroker with franz-go, a Go client that shares no code with Kafka's Java client,
// librdkafka or kafkajs, and asks for the newest API versions it knows. Run by FranzGoSmokeTest:
//
//	franzsmoke <bootstrap servers>
//	franzsmoke regex <bootstrap servers>
//	franzsmoke transact <bootstrap servers>
//	franzsmoke sessions <bootstrap servers> <topic> <partitions> <records there>
//
// The second form is franz-go's own TestConsumeRegex on a fresh broker (see regex.go); the third a
// consume-transform-produce loop with GroupTransactSession (see transact.go); the fourth reads a topic's partitions
// in an incremental fetch session (see sessions.go). The first creates a topic with kadm, produces 300 zstd-compressed records idempotently, consumes them with two
// members of one group under the cooperative-sticky balancer (the second joining while the first consumes),
// commits, then reads the group's lag, end offsets, topic configs and log dirs back, deletes the group and the
// topic, and prints one line of what it saw. Any error ends it with a non-zero exit and the error on stderr.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	topic   = "from-franz-go"
	group   = "franz-go-group"
	records = 300
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "franzsmoke: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "transact" {
		transact(os.Args[2])
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "migrate" {
		migrate(os.Args[2])
		return
	}
	if len(os.Args) == 6 && os.Args[1] == "sessions" {
		partitions, _ := strconv.Atoi(os.Args[4])
		first, _ := strconv.Atoi(os.Args[5])
		consumeInSession(os.Args[2], os.Args[3], partitions, first)
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "regex" {
		consumeRegex(os.Args[2])
		return
	}
	if len(os.Args) != 2 {
		fail("usage: franzsmoke [regex|transact|migrate] <bootstrap servers>")
	}
	bootstrap := os.Args[1]
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()

	adminClient, err := kgo.NewClient(kgo.SeedBrokers(bootstrap))
	if err != nil {
		fail("admin client: %v", err)
	}
	defer adminClient.Close()
	admin := kadm.NewClient(adminClient)
	created, err := admin.CreateTopics(ctx, 3, 1, nil, topic)
	if err != nil || created[topic].Err != nil {
		fail("create topic: %v %v", err, created[topic].Err)
	}

	produce(ctx, bootstrap)
	consumed := consumeInTwoMembers(ctx, bootstrap)

	lags, err := admin.Lag(ctx, group)
	if err != nil {
		fail("lag: %v", err)
	}
	lag := lags[group]
	if lag.Error() != nil {
		fail("lag of %s: %v", group, lag.Error())
	}
	ends, err := admin.ListEndOffsets(ctx, topic)
	if err != nil || ends.Error() != nil {
		fail("end offsets: %v %v", err, ends.Error())
	}
	endTotal := int64(0)
	ends.Each(func(o kadm.ListedOffset) { endTotal += o.Offset })
	configs, err := admin.DescribeTopicConfigs(ctx, topic)
	if err != nil {
		fail("describe configs: %v", err)
	}
	config, err := configs.On(topic, nil)
	if err != nil {
		fail("configs of %s: %v", topic, err)
	}
	cleanupPolicy := ""
	for _, c := range config.Configs {
		if c.Key == "cleanup.policy" {
			cleanupPolicy = c.MaybeValue()
		}
	}
	dirs, err := admin.DescribeAllLogDirs(ctx, nil)
	if err != nil {
		fail("log dirs: %v", err)
	}
	topicBytes := int64(0)
	for _, brokerDirs := range dirs {
		if brokerDirs.Error() != nil {
			fail("log dirs: %v", brokerDirs.Error())
		}
		brokerDirs.EachPartition(func(d kadm.DescribedLogDirPartition) {
			if d.Topic == topic {
				topicBytes += d.Size
			}
		})
	}
	if deleted, err := admin.DeleteGroups(ctx, group); err != nil || deleted[group].Err != nil {
		fail("delete group: %v %v", err, deleted[group].Err)
	}
	if deleted, err := admin.DeleteTopics(ctx, topic); err != nil || deleted[topic].Err != nil {
		fail("delete topic: %v %v", err, deleted[topic].Err)
	}
	fmt.Printf("consumed=%d lag=%d state=%s ends=%d cleanup.policy=%s logged=%t\n", consumed,
		lag.Lag.Total(), lag.State, endTotal, cleanupPolicy, topicBytes > 0)
}

func produce(ctx context.Context, bootstrap string) {
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.DefaultProduceTopic(topic),
		kgo.ProducerBatchCompression(kgo.ZstdCompression()))
	if err != nil {
		fail("producer: %v", err)
	}
	defer producer.Close()
	for i := 0; i < records; i++ {
		record := &kgo.Record{Key: []byte("k" + strconv.Itoa(i%7)), Value: []byte("v" + strconv.Itoa(i))}
		producer.Produce(ctx, record, func(_ *kgo.Record, err error) {
			if err != nil {
				fail("produce: %v", err)
			}
		})
	}
	if err := producer.Flush(ctx); err != nil {
		fail("flush: %v", err)
	}
}

// consumeInTwoMembers consumes every record with two members of the group, the second joining once the first
// has records, and commits what each owns at the end; it returns how many distinct records were seen.
func consumeInTwoMembers(ctx context.Context, bootstrap string) int {
	var mu sync.Mutex
	seen := map[string]bool{}
	member := func() *kgo.Client {
		client, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.ConsumeTopics(topic), kgo.ConsumerGroup(group),
			kgo.Balancers(kgo.CooperativeStickyBalancer()), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.DisableAutoCommit(), kgo.FetchMaxBytes(1024), kgo.FetchMaxPartitionBytes(512))
		if err != nil {
			fail("consumer: %v", err)
		}
		return client
	}
	poll := func(client *kgo.Client) int {
		fetches := client.PollFetches(ctx)
		if errs := fetches.Errors(); len(errs) > 0 {
			fail("poll: %v", errs)
		}
		mu.Lock()
		defer mu.Unlock()
		fetches.EachRecord(func(r *kgo.Record) { seen[string(r.Value)] = true })
		return len(seen)
	}
	first := member()
	for poll(first) == 0 {
	}
	second := member()
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, client := range []*kgo.Client{first, second} {
		wg.Add(1)
		go func(client *kgo.Client) {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if poll(client) == records {
					return
				}
			}
		}(client)
	}
	for {
		mu.Lock()
		all := len(seen) == records
		mu.Unlock()
		if all {
			break
		}
		if ctx.Err() != nil {
			fail("consumed only %d of %d records", len(seen), records)
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(done)
	first.AllowRebalance()
	second.AllowRebalance()
	wg.Wait()
	for _, client := range []*kgo.Client{first, second} {
		if err := client.CommitUncommittedOffsets(ctx); err != nil {
			fail("commit: %v", err)
		}
	}
	first.Close()
	second.Close()
	return len(seen)
}
