#ifndef SHARED_H
#define SHARED_H
#warning shared bug [seqlint-seqcount-write-missing-barrier]
int shared(void);
#endif
