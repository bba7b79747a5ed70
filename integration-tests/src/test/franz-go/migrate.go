package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

const (
	migrateTopic      = "migrate"
	migrateGroup      = "migrate-group"
	migratePartitions = 6
)

// owners tracks, through the members' rebalance callbacks, who holds each partition, and counts a partition
// given to a member while another still holds it.
type owners struct {
	mu        sync.Mutex
	held      map[int32]string
	bothHeld  int
	consumed  map[string]bool
	produced  int
	producers *kgo.Client
}

func (o *owners) assigned(name string, partitions map[string][]int32) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range partitions[migrateTopic] {
		if previous, ok := o.held[p]; ok && previous != name {
			o.bothHeld++
		}
		o.held[p] = name
	}
}

func (o *owners) released(name string, partitions map[string][]int32) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range partitions[migrateTopic] {
		if o.held[p] == name {
			delete(o.held, p)
		}
	}
}

// member starts a group member that polls until ctx ends: classic with the cooperative-sticky balancer, or
// KIP-848 (the server-side balancer).
func (o *owners) member(ctx context.Context, bootstrap, name string, serverSide bool) *kgo.Client {
	opts := []kgo.Opt{
		kgo.SeedBrokers(bootstrap), kgo.ClientID(name), kgo.ConsumerGroup(migrateGroup),
		kgo.ConsumeTopics(migrateTopic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.HeartbeatInterval(300 * time.Millisecond),
		kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, p map[string][]int32) { o.assigned(name, p) }),
		kgo.OnPartitionsRevoked(func(ctx context.Context, cl *kgo.Client, p map[string][]int32) {
			cl.CommitUncommittedOffsets(ctx)
			o.released(name, p)
		}),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, p map[string][]int32) { o.released(name, p) }),
	}
	if serverSide {
		opts = append(opts, kgo.ServerSideBalancer(), kgo.Balancers(kgo.RangeBalancer()))
	} else {
		opts = append(opts, kgo.Balancers(kgo.CooperativeStickyBalancer()))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		fail("member %s: %v", name, err)
	}
	go func() {
		for ctx.Err() == nil {
			fetches := cl.PollFetches(ctx)
			o.mu.Lock()
			fetches.EachRecord(func(r *kgo.Record) { o.consumed[string(r.Value)] = true })
			o.mu.Unlock()
		}
	}()
	return cl
}

func (o *owners) produce(ctx context.Context, count int) {
	for i := 0; i < count; i++ {
		value := fmt.Sprintf("r%d", o.produced)
		record := &kgo.Record{Topic: migrateTopic, Partition: int32(o.produced % migratePartitions), Value: []byte(value)}
		if err := o.producers.ProduceSync(ctx, record).FirstErr(); err != nil {
			fail("produce: %v", err)
		}
		o.produced++
	}
}

// await waits until every record produced was consumed and the given members hold every partition between them.
func (o *owners) await(ctx context.Context, what string, members ...string) {
	for {
		o.mu.Lock()
		done := len(o.consumed) == o.produced && len(o.held) == migratePartitions
		holders := map[string]bool{}
		for _, name := range o.held {
			holders[name] = true
		}
		for _, name := range members {
			done = done && holders[name]
		}
		done = done && len(holders) == len(members)
		consumed, held := len(o.consumed), fmt.Sprint(o.held)
		o.mu.Unlock()
		if done {
			return
		}
		select {
		case <-ctx.Done():
			fail("%s: consumed %d of %d, held %s", what, consumed, o.produced, held)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// groupType is "consumer" if ConsumerGroupDescribe describes the group, "classic" if it answers GROUP_ID_NOT_FOUND.
func groupType(ctx context.Context, cl *kgo.Client) string {
	describe := kmsg.NewPtrConsumerGroupDescribeRequest()
	describe.Groups = []string{migrateGroup}
	response, err := describe.RequestWith(ctx, cl)
	if err != nil || len(response.Groups) != 1 {
		fail("describe: %v", err)
	}
	switch response.Groups[0].ErrorCode {
	case 0:
		return "consumer"
	case 69:
		return "classic"
	}
	return fmt.Sprint("error ", response.Groups[0].ErrorCode)
}

// migrate: a classic group of two franz-go members (cooperative-sticky) is joined by a third with the server-side
// balancer (KIP-848), which upgrades the group; all three share the partitions, none held twice; the third leaves
// and the group is classic again, the two holding every partition. Prints what it saw.
func migrate(bootstrap string) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Second)
	defer cancel()
	producers, err := kgo.NewClient(kgo.SeedBrokers(bootstrap))
	if err != nil {
		fail("producer: %v", err)
	}
	defer producers.Close()
	created, err := kadm.NewClient(producers).CreateTopics(ctx, migratePartitions, 1, nil, migrateTopic)
	if err != nil || created[migrateTopic].Err != nil {
		fail("create topic: %v %v", err, created[migrateTopic].Err)
	}
	o := &owners{held: map[int32]string{}, consumed: map[string]bool{}, producers: producers}
	membersCtx, stopMembers := context.WithCancel(ctx)
	defer stopMembers()

	a := o.member(membersCtx, bootstrap, "classic-a", false)
	defer a.Close()
	b := o.member(membersCtx, bootstrap, "classic-b", false)
	defer b.Close()
	o.produce(ctx, 60)
	o.await(ctx, "classic", "classic-a", "classic-b")
	before := groupType(ctx, producers)

	modernCtx, stopModern := context.WithCancel(membersCtx)
	modern := o.member(modernCtx, bootstrap, "modern", true)
	o.produce(ctx, 60)
	o.await(ctx, "mixed", "classic-a", "classic-b", "modern")
	mixed := groupType(ctx, producers)

	stopModern()
	modern.Close()
	o.released("modern", map[string][]int32{migrateTopic: {0, 1, 2, 3, 4, 5}})
	o.produce(ctx, 60)
	o.await(ctx, "downgraded", "classic-a", "classic-b")
	after := groupType(ctx, producers)

	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Printf("consumed=%d types=%s,%s,%s both_held=%d\n", len(o.consumed), before, mixed, after, o.bothHeld)
}
