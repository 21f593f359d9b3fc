/* A file with one configuration. */
#warning plain access to shared data [seqlint-access-plain-shared]
