/* A mailbox in memory that two parts of a program share. */
struct mbox {
	int data;
	int ready;
};
