"""Reading inputs: multi-document YAML/JSON that remembers where every node came from."""
