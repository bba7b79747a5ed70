#!/usr/bin/env python3
"""Transcribes Kafka's message specs into this module's schema DSL and typed views.

The specs (JSON with comments) ship inside the kafka-clients jar under common/message/. This script
reads them from the jar, so they never enter the repository, and rewrites:
  src/main/java/io/minibroker/protocol/message/<Api>Messages.java  (schemas, for every API in APIS)
  src/main/java/io/minibroker/protocol/message/ApiKey.java         (the API registry)
  src/main/java/io/minibroker/protocol/message/view/<Api><Kind>View.java  (typed views, for VIEWED)
Run from protocol/:  python3 tools/transcribe_schemas.py ~/.m2/repository/org/apache/kafka/kafka-clients/4.4.0/kafka-clients-4.4.0.jar
then review the diff; GoldenMessageTest checks the result against the same jar.
"""
import json
import re
import sys
import zipfile

MESSAGE_DIR = 'src/main/java/io/minibroker/protocol/message/'
VIEW_DIR = MESSAGE_DIR + 'view/'

# (spec name, enum constant); order is irrelevant, ApiKey is sorted by key.
APIS = [
    ('ApiVersions', 'API_VERSIONS'), ('Metadata', 'METADATA'), ('Produce', 'PRODUCE'), ('Fetch', 'FETCH'),
    ('ListOffsets', 'LIST_OFFSETS'), ('OffsetCommit', 'OFFSET_COMMIT'), ('OffsetFetch', 'OFFSET_FETCH'),
    ('FindCoordinator', 'FIND_COORDINATOR'), ('JoinGroup', 'JOIN_GROUP'), ('Heartbeat', 'HEARTBEAT'),
    ('LeaveGroup', 'LEAVE_GROUP'), ('SyncGroup', 'SYNC_GROUP'), ('DescribeGroups', 'DESCRIBE_GROUPS'),
    ('ListGroups', 'LIST_GROUPS'), ('DeleteGroups', 'DELETE_GROUPS'), ('OffsetDelete', 'OFFSET_DELETE'),
    ('SaslHandshake', 'SASL_HANDSHAKE'), ('SaslAuthenticate', 'SASL_AUTHENTICATE'), ('CreateTopics', 'CREATE_TOPICS'),
    ('DeleteTopics', 'DELETE_TOPICS'), ('CreatePartitions', 'CREATE_PARTITIONS'), ('DeleteRecords', 'DELETE_RECORDS'),
    ('InitProducerId', 'INIT_PRODUCER_ID'), ('OffsetForLeaderEpoch', 'OFFSET_FOR_LEADER_EPOCH'),
    ('DescribeConfigs', 'DESCRIBE_CONFIGS'), ('AlterConfigs', 'ALTER_CONFIGS'),
    ('IncrementalAlterConfigs', 'INCREMENTAL_ALTER_CONFIGS'), ('DescribeCluster', 'DESCRIBE_CLUSTER'),
    ('DescribeProducers', 'DESCRIBE_PRODUCERS'), ('AddPartitionsToTxn', 'ADD_PARTITIONS_TO_TXN'),
    ('AddOffsetsToTxn', 'ADD_OFFSETS_TO_TXN'), ('EndTxn', 'END_TXN'), ('WriteTxnMarkers', 'WRITE_TXN_MARKERS'),
    ('TxnOffsetCommit', 'TXN_OFFSET_COMMIT'), ('DescribeTransactions', 'DESCRIBE_TRANSACTIONS'),
    ('ListTransactions', 'LIST_TRANSACTIONS'), ('AlterPartition', 'ALTER_PARTITION'),
    ('BrokerRegistration', 'BROKER_REGISTRATION'), ('BrokerHeartbeat', 'BROKER_HEARTBEAT'),
    ('ElectLeaders', 'ELECT_LEADERS'), ('DescribeLogDirs', 'DESCRIBE_LOG_DIRS'),
    ('DescribeUserScramCredentials', 'DESCRIBE_USER_SCRAM_CREDENTIALS'),
    ('AlterUserScramCredentials', 'ALTER_USER_SCRAM_CREDENTIALS'), ('DescribeClientQuotas', 'DESCRIBE_CLIENT_QUOTAS'),
]
VIEWED = ['ApiVersions', 'Metadata', 'Produce', 'Fetch', 'ListOffsets', 'FindCoordinator', 'JoinGroup', 'SyncGroup',
          'Heartbeat', 'LeaveGroup', 'OffsetCommit', 'OffsetFetch', 'InitProducerId', 'CreateTopics', 'DeleteTopics',
          'AlterPartition', 'BrokerRegistration', 'BrokerHeartbeat']

DSL_TYPES = {'int8': 'INT8', 'int16': 'INT16', 'int32': 'INT32', 'int64': 'INT64', 'uint16': 'UINT16',
             'uint32': 'UINT32', 'float64': 'FLOAT64', 'bool': 'BOOL', 'uuid': 'UUID', 'string': 'STRING',
             'bytes': 'BYTES', 'records': 'RECORDS'}
JAVA_TYPES = {'int8': ('byte', 'Byte'), 'int16': ('short', 'Short'), 'int32': ('int', 'Integer'),
              'int64': ('long', 'Long'), 'uint16': ('int', 'Integer'), 'uint32': ('long', 'Long'),
              'float64': ('double', 'Double'), 'bool': ('boolean', 'Boolean'), 'uuid': ('UUID', 'UUID'),
              'string': ('String', 'String'), 'bytes': ('byte[]', 'byte[]'), 'records': ('ByteBuf', 'ByteBuf')}


def load(jar, name):
    text = jar.read('common/message/' + name + '.json').decode('utf-8')
    return json.loads(re.sub(r'^\s*//.*$', '', text, flags=re.M))


def constant(name):
    return re.sub(r'(?<=[a-z0-9])(?=[A-Z])', '_', name).upper()


def java_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


# ---- schemas ---------------------------------------------------------------------------------------

def dsl_type(field, common, indent):
    t = field['type']
    is_array = t.startswith('[]')
    base = t[2:] if is_array else t
    if base in DSL_TYPES:
        inner = DSL_TYPES[base]
    elif 'fields' in field:
        inner = dsl_struct(base, field['fields'], common, indent + 8)
    elif base in common:
        inner = common[base]
    else:
        raise KeyError(t)
    return 'array(%s)' % inner if is_array else inner


def dsl_field(field, common, indent):
    s = 'field(%s, %s, %s)' % (java_string(field['name']), dsl_type(field, common, indent), java_string(field['versions']))
    if 'nullableVersions' in field:
        s += '.nullable(%s)' % java_string(field['nullableVersions'])
    if 'tag' in field:
        s += '.tagged(%d, %s)' % (field['tag'], java_string(field['taggedVersions']))
    if 'default' in field:
        d = field['default']
        d = str(d).lower() if isinstance(d, bool) else str(d)
        if d == 'null':
            s += '.defaultNull()'
        elif field['type'] == 'string':
            s += '.defaultsTo(%s)' % java_string(d)
        elif field['type'] == 'bool':
            s += '.defaultsTo(%s)' % d
        else:
            v = int(d, 16) if d.lower().startswith('0x') else int(d)
            s += '.defaultsTo(%s)' % (str(v) + ('' if -2**31 <= v < 2**31 else 'L'))
    return s


def dsl_struct(name, fields, common, indent):
    pad = ' ' * indent
    return 'struct(%s,\n' % java_string(name) + ',\n'.join(pad + dsl_field(f, common, indent) for f in fields) + ')'


def write_schemas(jar):
    keys = []
    for api, enum in APIS:
        parts, common = [], {}
        key = None
        for kind in ('Request', 'Response'):
            spec = load(jar, api + kind)
            key = spec['apiKey']
            pending = list(spec.get('commonStructs', []))
            while pending:  # common structs may use each other; emit each after what it uses
                cs = pending.pop(0)
                try:
                    body = dsl_struct(cs['name'], cs['fields'], common, 12)
                except KeyError:
                    pending.append(cs)
                    continue
                name = constant(cs['name'])
                if name in common.values():
                    name = kind.upper() + '_' + name
                common[cs['name']] = name
                parts.append('    private static final StructSchema %s = %s;\n' % (name, body))
            message = '    static final MessageSchema %s = message(%s, %s, %s,\n' % (
                kind.upper(), java_string(spec['name']), java_string(spec['validVersions']),
                java_string(spec['flexibleVersions']))
            message += ',\n'.join(' ' * 12 + dsl_field(f, common, 12) for f in spec['fields']) + ');\n'
            parts.append(message)
        keys.append((enum, key, api, bool(load(jar, api + 'Request').get('latestVersionUnstable', False))))
        body = '\n'.join(parts)
        imports = 'import io.minibroker.protocol.schema.MessageSchema;\n'
        if 'private static final StructSchema' in body:
            imports += 'import io.minibroker.protocol.schema.StructSchema;\n'
        with open(MESSAGE_DIR + api + 'Messages.java', 'w') as out:
            out.write('''package io.minibroker.protocol.message;

import static io.minibroker.protocol.schema.SchemaDsl.*;

%s
/** %s (API key %d): request and response bodies, transcribed from the Kafka protocol specification. */
final class %sMessages {
%s
    private %sMessages() {
    }
}
''' % (imports, api, key, api, body, api))
    write_api_keys(keys)


def write_api_keys(keys):
    lines = [(k, '    %s(%d, %sMessages.REQUEST, %sMessages.RESPONSE%s)' % (e, k, a, a, ', true' if unstable else ''))
             for e, k, a, unstable in keys]
    with open(MESSAGE_DIR + 'ApiKey.java') as f:
        current = f.read()
    # Only the constants are generated; the rest of ApiKey is hand-written.
    start = current.index('public enum ApiKey {\n') + len('public enum ApiKey {\n')
    end = current.index(';\n', start) + 2
    # Constants of APIs whose messages are written by hand (the ACL APIs share one AclMessages) are kept as they are.
    generated = {e for e, _, _, _ in keys}
    for match in re.finditer(r'^    ([A-Z_]+)\((\d+), (.*?)\)[,;]$', current[start:end], re.MULTILINE):
        if match.group(1) not in generated:
            lines.append((int(match.group(2)), match.group(0)[:-1]))
    lines.sort(key=lambda line: line[0])
    constants = ',\n'.join(line for _, line in lines) + ';'
    with open(MESSAGE_DIR + 'ApiKey.java', 'w') as f:
        f.write(current[:start] + constants + '\n' + current[end:])


# ---- typed views -----------------------------------------------------------------------------------

def lower_camel(name):
    return name[0].lower() + name[1:]


def singular(name):
    if name.endswith('ies'):
        return name[:-3] + 'y'
    if name.endswith('sses') or name.endswith('xes'):
        return name[:-2]
    if name.endswith('s'):
        return name[:-1]
    return name


def view_class(cls, fields, schema_expr, common, indent, top, classes, imports):
    p = ' ' * indent
    q = p + '    '
    out = [p + 'public %sfinal class %s {' % ('' if top else 'static ', cls),
           q + 'static final StructSchema SCHEMA = %s;' % schema_expr]
    out += [q + 'private static final int %s = SCHEMA.indexOf("%s");' % (constant(f['name']), f['name']) for f in fields]
    out += ['', q + 'private final Struct struct;',
            '', q + 'public %s(Struct struct) {' % cls, q + '    this.struct = Views.check(struct, SCHEMA);', q + '}',
            '', q + 'public %s() {' % cls, q + '    this(SCHEMA.newStruct());', q + '}',
            '', q + 'public Struct struct() {', q + '    return struct;', q + '}']
    for f in fields:
        t = f['type']
        is_array = t.startswith('[]')
        base = t[2:] if is_array else t
        c, m = constant(f['name']), lower_camel(f['name'])
        if base in JAVA_TYPES:
            prim, box = JAVA_TYPES[base]
            if base == 'uuid':
                imports.add('java.util.UUID')
            if base == 'records':
                imports.add('io.netty.buffer.ByteBuf')
            if is_array:
                imports.add('java.util.List')
                out += ['', q + 'public List<%s> %s() {' % (box, m), q + '    return Views.scalars(struct.get(%s));' % c, q + '}',
                        '', q + 'public %s %s(List<%s> value) {' % (cls, m, box), q + '    struct.set(%s, value);' % c,
                        q + '    return this;', q + '}']
            else:
                out += ['', q + 'public %s %s() {' % (prim, m), q + '    return (%s) struct.get(%s);' % (box, c), q + '}',
                        '', q + 'public %s %s(%s value) {' % (cls, m, prim), q + '    struct.set(%s, value);' % c,
                        q + '    return this;', q + '}']
        else:
            if base not in classes:
                classes[base] = (f.get('fields') or common[base], '%s.SCHEMA.structOf("%s")' % (cls, f['name']))
            if is_array:
                imports.add('java.util.List')
                out += ['', q + 'public List<%s> %s() {' % (base, m),
                        q + '    return Views.structs(struct.get(%s), %s::new);' % (c, base), q + '}',
                        '', q + 'public %s add%s() {' % (base, singular(f['name'])),
                        q + '    return new %s(struct.addElement(%s));' % (base, c), q + '}']
            else:
                out += ['', q + 'public %s %s() {' % (base, m), q + '    return new %s((Struct) struct.get(%s));' % (base, c), q + '}']
    if top:  # element views are flat members of the top-level view, so every name resolves everywhere
        done = set()
        while len(done) < len(classes):
            for name in list(classes):
                if name not in done:
                    done.add(name)
                    nested_fields, expr = classes[name]
                    out.append('')
                    out += view_class(name, nested_fields, expr, common, indent + 4, False, classes, imports)
    out.append(p + '}')
    return out


def write_views(jar):
    enums = dict(APIS)
    for api in VIEWED:
        for kind in ('Request', 'Response'):
            spec = load(jar, api + kind)
            common = {cs['name']: cs['fields'] for cs in spec.get('commonStructs', [])}
            imports = set()
            cls = api + kind + 'View'
            body = view_class(cls, spec['fields'], 'ApiKey.%s.%s().body()' % (enums[api], kind.lower()), common, 0, True, {}, imports)
            imports |= {'io.minibroker.protocol.message.ApiKey', 'io.minibroker.protocol.schema.Struct',
                        'io.minibroker.protocol.schema.StructSchema'}
            lines = ['package io.minibroker.protocol.message.view;', '']
            lines += ['import %s;' % i for i in sorted(i for i in imports if not i.startswith('java.'))]
            lines += ['import %s;' % i for i in sorted(i for i in imports if i.startswith('java.'))]
            lines += ['', '/** Typed view of %s %s bodies of every version; fields a version lacks read as their defaults. */'
                      % (api, kind.lower())]
            with open(VIEW_DIR + cls + '.java', 'w') as out:
                out.write('\n'.join(lines + body) + '\n')


if __name__ == '__main__':
    with zipfile.ZipFile(sys.argv[1]) as kafka_jar:
        write_schemas(kafka_jar)
        write_views(kafka_jar)
