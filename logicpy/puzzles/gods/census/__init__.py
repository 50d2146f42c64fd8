"""The census of gods puzzles: the run, its command, the Dask cluster, the results store and sharded universes."""
