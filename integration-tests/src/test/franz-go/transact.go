package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	transactIn    = "transact-in"
	transactOut   = "transact-out"
	transactGroup = "transact-group"
	transactCount = 200
)

// transact is a consume-transform-produce loop with kgo.GroupTransactSession: 200 records are written to
// transact-in (two partitions); the session reads them read_committed in a group and writes each value with an
// "out-" prefix to transact-out, committing the group's offsets in the same transaction. Its first transaction is
// aborted on purpose, so the session rewinds and reads those records again. A read_committed consumer then reads
// transact-out; it prints the number of records that consumer read, how many distinct, whether every input is there, and the
// group's committed offsets summed over the partitions.
func transact(bootstrap string) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	adminClient, err := kgo.NewClient(kgo.SeedBrokers(bootstrap))
	if err != nil {
		fail("admin client: %v", err)
	}
	defer adminClient.Close()
	admin := kadm.NewClient(adminClient)
	if created, err := admin.CreateTopics(ctx, 2, 1, nil, transactIn, transactOut); err != nil || created.Error() != nil {
		fail("create topics: %v %v", err, created.Error())
	}
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.DefaultProduceTopic(transactIn))
	if err != nil {
		fail("producer: %v", err)
	}
	for i := 0; i < transactCount; i++ {
		producer.Produce(ctx, kgo.StringRecord(strconv.Itoa(i)), nil)
	}
	if err := producer.Flush(ctx); err != nil {
		fail("flush: %v", err)
	}
	producer.Close()

	transformExactlyOnce(ctx, bootstrap)
	out := readCommitted(ctx, bootstrap)
	distinct := map[string]bool{}
	for _, value := range out {
		distinct[value] = true
	}
	all := true
	for i := 0; i < transactCount; i++ {
		all = all && distinct["out-"+strconv.Itoa(i)]
	}
	offsets, err := admin.FetchOffsets(ctx, transactGroup)
	if err != nil || offsets.Error() != nil {
		fail("fetch offsets: %v %v", err, offsets.Error())
	}
	committed := int64(0)
	offsets.Each(func(o kadm.OffsetResponse) { committed += o.At })
	fmt.Printf("read=%d distinct=%d all=%t committed=%d\n", len(out), len(distinct), all, committed)
}

// transformExactlyOnce runs the session until transactCount records have been committed.
func transformExactlyOnce(ctx context.Context, bootstrap string) {
	session, err := kgo.NewGroupTransactSession(kgo.SeedBrokers(bootstrap), kgo.TransactionalID("franz-transact"),
		kgo.ConsumerGroup(transactGroup), kgo.ConsumeTopics(transactIn), kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.RequireStableFetchOffsets(), kgo.DefaultProduceTopic(transactOut))
	if err != nil {
		fail("session: %v", err)
	}
	defer session.Close()
	committed, aborted := 0, false
	for committed < transactCount {
		fetches := session.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			fail("transform: %v after %d committed", err, committed)
		}
		fetches.EachError(func(topic string, partition int32, err error) { fail("fetch %s-%d: %v", topic, partition, err) })
		if fetches.NumRecords() == 0 {
			continue
		}
		if err := session.Begin(); err != nil {
			fail("begin: %v", err)
		}
		fetches.EachRecord(func(r *kgo.Record) {
			session.Produce(ctx, kgo.StringRecord("out-"+string(r.Value)), nil)
		})
		commit := kgo.TryCommit
		if !aborted {
			commit, aborted = kgo.TryAbort, true
		}
		done, err := session.End(ctx, commit)
		if err != nil {
			fail("end: %v", err)
		}
		if done && commit == kgo.TryCommit {
			committed += fetches.NumRecords()
		}
	}
}

// readCommitted reads transact-out from the start, read_committed, until a poll brings nothing more.
func readCommitted(ctx context.Context, bootstrap string) []string {
	client, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.ConsumeTopics(transactOut),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		fail("reader: %v", err)
	}
	defer client.Close()
	var values []string
	for len(values) < transactCount {
		fetches := client.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			fail("read: %v after %d records", err, len(values))
		}
		fetches.EachRecord(func(r *kgo.Record) { values = append(values, string(r.Value)) })
	}
	// Anything beyond transactCount would be a duplicate; one more short poll lets it show.
	short, stop := context.WithTimeout(ctx, 2*time.Second)
	defer stop()
	client.PollFetches(short).EachRecord(func(r *kgo.Record) { values = append(values, string(r.Value)) })
	sort.Strings(values)
	return values
}
