print("usage: CounterDemo (the demo arrives with its own issue)")
