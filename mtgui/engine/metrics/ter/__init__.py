"""TER and WER: edit distances over words, TER's shift search as sacreBLEU's (tercom's),
compiled.
"""
