"""chrF and chrF++ (Popovic 2015, 2017) as sacreBLEU computes them: character n-gram
counts, their compiled kernels, and the options.
"""
