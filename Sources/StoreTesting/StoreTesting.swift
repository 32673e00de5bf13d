import ValueStore
