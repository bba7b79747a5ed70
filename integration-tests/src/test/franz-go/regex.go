package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

const (
	offsetsTopic = "__consumer_offsets"
	regexPrefix  = "regex-"
	regexGroup   = "regex-group"
)

// consumeRegex does on a fresh broker what franz-go's own TestConsumeRegex does (pkg/kgo/consumer_test.go, its
// internal topic from internalTopic in helpers_test.go): one FindCoordinator, which has Kafka create
// __consumer_offsets, then Metadata requests that create nothing until they list that topic as internal (franz-go
// gives up after 30 s). It then consumes, in a group, by regular expressions matching four topics of its own and
// __consumer_offsets by name, two of its topics excluded, and prints the topics it consumed, the records it read
// and the topics franz-go skipped as internal, which must be __consumer_offsets.
func consumeRegex(bootstrap string) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	adminClient, err := kgo.NewClient(kgo.SeedBrokers(bootstrap))
	if err != nil {
		fail("admin client: %v", err)
	}
	defer adminClient.Close()

	find := kmsg.NewPtrFindCoordinatorRequest()
	find.CoordinatorKey = regexGroup
	find.CoordinatorKeys = []string{regexGroup}
	find.RequestWith(ctx, adminClient) // answered whatever it answers, as franz-go's test does
	if err := awaitInternal(ctx, adminClient, 30*time.Second); err != nil {
		fail("%s after a FindCoordinator: %v", offsetsTopic, err)
	}

	admin := kadm.NewClient(adminClient)
	names := []string{regexPrefix + "include-1", regexPrefix + "include-2", regexPrefix + "exclude-1",
		regexPrefix + "exclude-2"}
	created, err := admin.CreateTopics(ctx, 1, 1, nil, names...)
	if err != nil || created.Error() != nil {
		fail("create topics: %v %v", err, created.Error())
	}
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap))
	if err != nil {
		fail("producer: %v", err)
	}
	for _, name := range names {
		if err := producer.ProduceSync(ctx, &kgo.Record{Topic: name, Value: []byte(name)}).FirstErr(); err != nil {
			fail("produce to %s: %v", name, err)
		}
	}
	producer.Close()

	logs := &regexLog{}
	consumer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap),
		kgo.ConsumeTopics(regexPrefix+".*", regexp.QuoteMeta(offsetsTopic)),
		kgo.ConsumeExcludeTopics(regexPrefix+"exclude-.*"), kgo.ConsumeRegex(), kgo.ConsumerGroup(regexGroup),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.MetadataMinAge(100*time.Millisecond),
		kgo.WithLogger(logs))
	if err != nil {
		fail("consumer: %v", err)
	}
	defer consumer.Close()
	var read []string
	for len(read) < 2 {
		fetches := consumer.PollFetches(ctx)
		if errs := fetches.Errors(); len(errs) > 0 {
			fail("poll (read so far %v): %v", read, errs)
		}
		fetches.EachRecord(func(r *kgo.Record) { read = append(read, string(r.Value)) })
	}
	topics := consumer.GetConsumeTopics()
	sort.Strings(topics)
	sort.Strings(read)
	fmt.Printf("topics=%s read=%s skipped_internal=%s\n", strings.Join(topics, ","), strings.Join(read, ","),
		strings.Join(logs.skippedInternal(), ","))
}

// awaitInternal asks for __consumer_offsets' metadata, creating nothing, until it is there and internal.
func awaitInternal(ctx context.Context, client *kgo.Client, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		err := internal(ctx, client)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("still after %v: %w", limit, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func internal(ctx context.Context, client *kgo.Client) error {
	req := kmsg.NewPtrMetadataRequest() // AllowAutoTopicCreation false: asking must not create it
	reqTopic := kmsg.NewMetadataRequestTopic()
	reqTopic.Topic = kmsg.StringPtr(offsetsTopic)
	req.Topics = append(req.Topics, reqTopic)
	resp, err := req.RequestWith(ctx, client)
	if err != nil {
		return err
	}
	for _, t := range resp.Topics {
		if t.Topic != nil && *t.Topic == offsetsTopic {
			if t.ErrorCode != 0 {
				return fmt.Errorf("error code %d", t.ErrorCode)
			}
			if !t.IsInternal {
				return errors.New("not internal")
			}
			return nil
		}
	}
	return errors.New("not in the metadata")
}

// regexLog keeps the topics franz-go's regular expression evaluation skipped as internal, from the line it logs
// at info level each time it evaluates new topics.
type regexLog struct {
	mu       sync.Mutex
	internal []string
}

func (l *regexLog) Level() kgo.LogLevel { return kgo.LogLevelInfo }

func (l *regexLog) Log(_ kgo.LogLevel, msg string, keyvals ...any) {
	if msg != "consumer regular expressions evaluated on new topics" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := 0; i+1 < len(keyvals); i += 2 {
		if keyvals[i] == "skipped_internal" {
			if topics, ok := keyvals[i+1].([]string); ok {
				l.internal = append(l.internal, topics...)
			}
		}
	}
}

func (l *regexLog) skippedInternal() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	topics := slices.Clone(l.internal)
	sort.Strings(topics)
	return slices.Compact(topics)
}
