"""The fault suite's marker: `make test-faults` runs the tests marked `faults`."""


def pytest_configure(config):
    config.addinivalue_line("markers", "faults: the fault suite (every command against hostile inputs); "
                                       "run with `make test-faults`")
