/* One file, two configurations (the database compiles it with -DLATENCY and
 * with -DTHROUGHPUT, as Concurrency Kit's regressions do). The fake
 * findings are #warnings ending in "[seqlint-<check>]". */
#ifdef THROUGHPUT
#warning batched store before the write barrier [seqlint-seqcount-write-missing-barrier]
#endif
#warning begin value never validated [seqlint-seqcount-read-no-retry]
