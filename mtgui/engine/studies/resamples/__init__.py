"""The resamples study: how many bootstrap resamples make the bounds stable."""
