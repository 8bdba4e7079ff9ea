"""Loaded by the Python of a moto_server that outrank starts (PYTHONPATH names this folder).

moto's answers are kept; what changes is what they cost, which in moto grows with the table or with
everything written so far, so that a local fleet slows down with every write:

- Transactions. moto backs up a DynamoDB transaction by deep-copying each table it names, once for
  every item it writes, the table's stream records included, to put the copies back if the
  transaction is cancelled: at 3,000 items a three-item transaction took most of a second. Putting
  the copies back also stranded the stream's readers: an open shard iterator went on reading the
  replaced table's stream, which held the cancelled writes and never the later ones. Here a
  transaction backs up only what it can change (the items it names and the length of each stream)
  and puts back just that, in the same table, when it fails, as DynamoDB would leave it. That
  includes a request moto refuses part-way without putting anything back (an item holding two
  operations): nothing of it is kept, as in DynamoDB.
- Queries. moto reads a Query's candidates from every item of the table, sorted, for each request.
  A Query of the table or of a local secondary index names one partition, and only that partition
  is read here; global secondary indexes are read as moto reads them.
- Requests. moto lists its own package directory for every request, under the lock that serialises
  requests; the list is read once here. Request lines are not logged (werkzeug's INFO lines, written
  through colorama, took a tenth of moto's time); warnings and errors still are.
- Queue clocks. Every receive and every queue attribute read checks each message of the queue against
  the clock, which moto reads by building two datetimes per message: with 2,000 messages waiting that
  was most of its time. The clock is read here from time.time(), the same milliseconds since the epoch.

A moto without the modules these changes expect runs as it is.
"""

import copy
import functools
import inspect
import logging
import sys
import threading
import time
import types

try:
    from moto import backends
    from moto.dynamodb import models
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table
    from moto.sqs import models as sqs_models
except ImportError as error:  # another moto, or none: nothing to change
    print(f"outrank: moto left as it is ({error})", file=sys.stderr)
else:
    # Transactions: back up the items written, not the tables.
    _deep_copy = copy.deepcopy
    _transact_write_items = models.DynamoDBBackend.transact_write_items

    def _copy_unless_table(value, memo=None):
        # The transaction's own backup of a whole table: the items it names are backed up instead.
        return value if isinstance(value, Table) else _deep_copy(value, memo)

    def _named_key(table, kind, operation):
        attributes = operation.get("Item") if kind == "Put" else operation.get("Key")
        if not isinstance(attributes, dict) or table.hash_key_attr not in attributes:
            return None
        range_name = table.range_key_attr
        if range_name is not None and range_name not in attributes:
            return None
        hash_value = DynamoType(attributes[table.hash_key_attr])
        range_value = DynamoType(attributes[range_name]) if range_name is not None else None
        return hash_value, range_value

    def _put_back(table, hash_value, range_value, previous):
        holder, key = (table.items, hash_value) if range_value is None else (table.items[hash_value], range_value)
        if previous is None:
            holder.pop(key, None)
        else:
            holder[key] = previous

    def _backup_of(backend, entry):
        """The table, key and current item an operation of a transaction names, or None if moto will refuse it."""
        try:
            ((kind, operation),) = entry.items()
            table = backend.get_table(operation["TableName"])  # by name or by ARN
            named = _named_key(table, kind, operation)
            return None if named is None else (table, *named, _deep_copy(table.get_item(*named)))
        except Exception:  # malformed: moto answers it with its own error, and writes nothing for it
            return None

    def transact_write_items(self, transact_items):
        backups = {}
        stream_lengths = {}
        for entry in transact_items:
            backup = _backup_of(self, entry)
            if backup is None:
                continue
            table, hash_value, range_value, _ = backup
            backups.setdefault((id(table), hash_value, range_value), backup)
            if table.stream_shard is not None:
                stream_lengths.setdefault(id(table), (table.stream_shard, len(table.stream_shard.items)))
        try:
            return _transact_write_items(self, transact_items)
        except BaseException:
            for table, hash_value, range_value, previous in backups.values():
                _put_back(table, hash_value, range_value, previous)
            for shard, length in stream_lengths.values():
                del shard.items[length:]
            raise

    models.copy = types.SimpleNamespace(deepcopy=_copy_unless_table)
    models.DynamoDBBackend.transact_write_items = transact_write_items

    # Queries: read the partition the query names, not the whole table.
    _query = Table.query
    _query_signature = inspect.signature(_query)
    _all_items = Table.all_items
    _querying = threading.local()

    def _queried_partition(table, arguments):
        """The partition key a Query of the table or of a local index names, else None (read everything)."""
        index_name = arguments.get("index_name")
        if not index_name:
            return arguments.get("hash_key")
        if index_name not in {index.name for index in table.indexes or []}:
            return None
        conditions = dict(arguments.get("hash_key_conditions") or [])
        return conditions.get(table.hash_key_attr)

    def _hashable(value):
        try:
            hash(value)
            return True
        except Exception:  # a set, list or map, or a number that is not one: moto answers as it would
            return False

    def query(self, *args, **kwargs):
        arguments = _query_signature.bind(self, *args, **kwargs).arguments
        partition = _queried_partition(self, arguments)
        if partition is None or not _hashable(partition):
            return _query(self, *args, **kwargs)
        _querying.partition = (self, partition)
        try:
            return _query(self, *args, **kwargs)
        finally:
            _querying.partition = None

    def all_items(self):
        querying = getattr(_querying, "partition", None)
        if querying is None or querying[0] is not self:
            return _all_items(self)
        held = self.items.get(querying[1])
        if held is None:
            return []
        return list(held.values()) if self.range_key_attr else [held]

    Table.query = query
    Table.all_items = all_items

    # Requests: the package's modules listed once, and no line logged per request.
    _list_of_moto_modules = backends.list_of_moto_modules
    backends.list_of_moto_modules = functools.cache(lambda: tuple(_list_of_moto_modules()))
    logging.getLogger("werkzeug").setLevel(logging.WARNING)

    # Queue clocks: the milliseconds since the epoch without building datetimes.
    _unix_time_millis = sqs_models.unix_time_millis

    def unix_time_millis(moment=None):
        return time.time() * 1000.0 if moment is None else _unix_time_millis(moment)

    sqs_models.unix_time_millis = unix_time_millis
