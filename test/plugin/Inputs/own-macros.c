/* A project that defines its own macros with our names, differently. */
#define smp_wmb(x) ((void)(x))
#define READ_ONCE(a, b) ((a) + (b))
#define WRITE_ONCE 42
#define read_seqcount_begin(s) 0
int g, h;
struct s { unsigned seq; int a; } obj;
int f(void)
{
	int x = READ_ONCE(g, h);
	obj.seq++;
	smp_wmb(x);
	obj.a = WRITE_ONCE;
	obj.seq++;
	return x + read_seqcount_begin(&obj);
}
