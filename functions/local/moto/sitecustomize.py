"""Loaded by the Python of a moto_server that outrank starts (PYTHONPATH names this folder).

moto backs up a DynamoDB transaction by deep-copying each table it names, once for every item it
writes, the table's stream records included, so that it can put the tables back if the transaction
is cancelled. Each transaction then costs time in the size of the table and in every write the
table has ever streamed: at 3,000 items a three-item transaction takes most of a second, and a
local fleet slows down with every write. Putting the copies back also strands the stream's readers:
an open shard iterator goes on reading the replaced table's stream, which holds the cancelled writes
and never the later ones. Here a transaction backs up only what it can change (the items it names and
the length of each stream) and puts back just that, in the same table, when it is cancelled, as
DynamoDB would leave it: no cancelled write is kept or streamed.

A moto that does not look as expected here runs unchanged.
"""

import copy
import sys
import types

try:
    from moto.dynamodb import models
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table
except ImportError as error:  # another moto, or none: nothing to change
    print(f"outrank: moto's DynamoDB transactions left as they are ({error})", file=sys.stderr)
else:
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

    def transact_write_items(self, transact_items):
        backups = {}
        stream_lengths = {}
        for entry in transact_items:
            if not isinstance(entry, dict) or len(entry) != 1:
                continue
            ((kind, operation),) = entry.items()
            table = self.tables.get(operation.get("TableName")) if isinstance(operation, dict) else None
            named = _named_key(table, kind, operation) if table is not None else None
            if named is None:
                continue
            backups.setdefault((id(table), *named), (table, *named, _deep_copy(table.get_item(*named))))
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
