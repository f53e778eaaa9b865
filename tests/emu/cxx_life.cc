/*
 * cxx_life.cc -- C++ under the emulator: what each process would have of
 * its own, each virtual rank has.
 *
 *  - A global std::vector is constructed by each rank: its own heap
 *    buffer, which the rank grows.
 *  - A global object's constructor runs once per rank, on that rank's
 *    globals; its destructor, and an atexit handler, once per rank at the
 *    end, after MPI_Finalize (they print a line each).
 *  - Function-local statics (guarded) and template static members are
 *    initialized per rank.
 *  - Exceptions: every rank throws while another is inside a catch block
 *    or unwinding (an MPI call there switches ranks); rethrow finds the
 *    rank's own exception, and std::uncaught_exceptions() counts the
 *    rank's own.
 *
 * Prints "cxx_life: ok N ranks" from rank 0 when every check holds, and
 * "FAIL ..." lines otherwise; runs the same natively under mpicxx.
 */
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

static int failures;
#define CHECK(c, ...) \
	do { \
		if (!(c)) { \
			std::printf("FAIL rank %d: ", world_rank()); \
			std::printf(__VA_ARGS__); \
			std::printf("\n"); \
			failures++; \
		} \
	} while (0)

static int world_rank()
{
	int r = -1, inited = 0;
	MPI_Initialized(&inited);
	if (inited)
		MPI_Comm_rank(MPI_COMM_WORLD, &r);
	return r;
}

std::vector<int> numbers(4, 7);
static int constructed;   /* how many times Witness() ran in this rank */

struct Witness {
	int rank = -1;
	std::string name;
	Witness() : name("witness") { constructed++; }
	~Witness()
	{
		std::printf("dtor rank %d %s constructed %d\n", rank,
			    name.c_str(), constructed);
		std::fflush(stdout);
	}
};
Witness witness;

template <class T> struct Holder {
	static T value;
};
template <class T> T Holder<T>::value = T(3);

static int first_caller()
{
	static const int who = world_rank();   /* guarded initialization */
	return who;
}

static int atexit_rank = -1;
static void at_end()
{
	std::printf("atexit rank %d\n", atexit_rank);
	std::fflush(stdout);
}

/* Blocks in MPI while its rank unwinds an exception. */
struct Unwinder {
	int *seen;
	explicit Unwinder(int *s) : seen(s) {}
	~Unwinder()
	{
		MPI_Barrier(MPI_COMM_WORLD);
		*seen = std::uncaught_exceptions();
	}
};

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	witness.rank = rank;
	atexit_rank = rank;
	std::atexit(at_end);

	CHECK(constructed == 1, "the global's constructor ran %d times",
	      constructed);
	CHECK(numbers.size() == 4 && numbers[0] == 7,
	      "the vector starts with %zu elements", numbers.size());
	/* Every rank's buffer is its own: a buffer shared by the ranks of a
	 * process would hold the last writer's rank. */
	numbers[0] = rank;
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK(numbers[0] == rank, "the vector's buffer holds %d, written by "
	      "another rank", numbers[0]);
	for (int i = 0; i <= rank; i++)
		numbers.push_back(rank);
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK(numbers.size() == (std::size_t)(4 + rank + 1) &&
	      numbers.back() == rank, "the vector has %zu elements, last %d",
	      numbers.size(), numbers.back());

	CHECK(first_caller() == rank, "the local static was set by rank %d",
	      first_caller());
	CHECK(Holder<int>::value == 3, "Holder<int>::value is %d",
	      Holder<int>::value);
	Holder<int>::value += rank;
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK(Holder<int>::value == 3 + rank, "Holder<int>::value is %d",
	      Holder<int>::value);

	/* A catch block with an MPI call in it, then a rethrow. */
	std::string got;
	try {
		try {
			throw std::runtime_error("rank " + std::to_string(rank));
		} catch (const std::runtime_error &) {
			MPI_Barrier(MPI_COMM_WORLD);
			throw;
		}
	} catch (const std::exception &e) {
		got = e.what();
	}
	CHECK(got == "rank " + std::to_string(rank), "caught '%s'",
	      got.c_str());
	CHECK(std::uncaught_exceptions() == 0, "%d uncaught exceptions",
	      std::uncaught_exceptions());

	/* Unwinding through an MPI call. */
	int seen = -1;
	try {
		Unwinder u(&seen);
		throw rank;
	} catch (int r) {
		CHECK(r == rank, "caught %d", r);
	}
	CHECK(seen == 1, "std::uncaught_exceptions() was %d while unwinding",
	      seen);

	int bad = 0;
	MPI_Reduce(&failures, &bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0 && bad == 0)
		std::printf("cxx_life: ok %d ranks\n", size);
	std::fflush(stdout);
	MPI_Finalize();
	return 0;
}
