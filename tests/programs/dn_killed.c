// Denormal mode, killed by SIGTERM half-way through its work (as a batch system's time
// limit kills a job): the denormal record written in the signal handler is analysed
// like any other (tests/tests/denormal_e2e.rs).
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

float grid[4096];

int main(int argc, char **argv) {
    int steps = argc > 1 ? atoi(argv[1]) : 100;
    for (int i = 0; i < 4096; i++)
        grid[i] = 1e-39f * (float)(i % 7 + 1);
    float sum = 0.0f;
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < 4096; i++)
            grid[i] = grid[i] * 0.5f + 1e-40f; /* @update */
        if (t == steps / 2) {
            printf("sum %g\n", (double)sum);
            fflush(stdout);
            kill(getpid(), SIGTERM);
        }
        sum += grid[t % 4096];
    }
    printf("not reached %g\n", (double)sum);
    return 0;
}
