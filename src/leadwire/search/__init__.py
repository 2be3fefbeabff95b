"""The local search engine: a hybrid lexical + semantic index over a world's documents (the sandbox
world, or an operator's ingested corpus). The sandbox builds and refreshes it; the sandbox search
provider queries it. It depends on neither."""
