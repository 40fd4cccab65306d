// The same constraint systems as main.swift, solved by kiwi (the C++
// Cassowary implementation behind PyPI's kiwisolver), for
// Benchmarks/layout.sh to print side by side. Built from kiwi's headers by
// that script; nothing of kiwi is part of the library.
//
// Strengths: kiwi's are weights, ours are priorities compared strongest
// first. Where a system has one optional strength they behave the same;
// the screen uses kiwi's strong/medium/weak for 750/251/250.
#include <kiwi/kiwi.h>
#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

using namespace kiwi;

// The thread's CPU time, in microseconds, as main.swift measures it.
static double threadCPUMicroseconds() {
    timespec time;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return double(time.tv_sec) * 1e6 + double(time.tv_nsec) / 1e3;
}

static double measure(int runs, const std::function<void()>& body) {
    std::vector<double> samples;
    for (int run = 0; run < runs; ++run) {
        double start = threadCPUMicroseconds();
        body();
        samples.push_back(threadCPUMicroseconds() - start);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

struct Grid {
    std::vector<Variable> left, top, width, height;
    int columns;

    explicit Grid(int views) {
        columns = int(std::ceil(std::sqrt(double(views))));
        for (int index = 0; index < views; ++index) {
            left.emplace_back();
            top.emplace_back();
            width.emplace_back();
            height.emplace_back();
        }
    }

    void add(Solver& solver) {
        for (size_t index = 0; index < left.size(); ++index) {
            int column = int(index) % columns;
            if (column == 0) {
                solver.addConstraint(left[index] == 0);
            } else {
                solver.addConstraint(left[index] == left[index - 1] + width[index - 1] + 8);
            }
            if (int(index) < columns) {
                solver.addConstraint(top[index] == 0);
            } else {
                solver.addConstraint(top[index] == top[index - columns] + height[index - columns] + 8);
            }
            solver.addConstraint(width[index] == 40 | strength::medium);
            solver.addConstraint(height[index] == width[index]);
        }
    }
};

static double layOutScreen(int rows) {
    Solver solver;
    std::vector<Variable> variables;
    Variable previousBottom;
    double checksum = 0;
    for (int row = 0; row < rows; ++row) {
        Variable labelLeft, labelWidth, fieldLeft, fieldWidth, top, height, bottom;
        double labelText = 40 + (row * 37) % 80;
        solver.addConstraint(labelLeft == 16);
        solver.addConstraint(fieldLeft == labelLeft + labelWidth + 8);
        solver.addConstraint(fieldLeft + fieldWidth == 390 - 16);
        solver.addConstraint(labelWidth <= labelText | strength::medium);
        solver.addConstraint(labelWidth >= labelText | strength::strong);
        solver.addConstraint(fieldWidth <= 100 | strength::weak);
        solver.addConstraint(fieldWidth >= 100 | strength::strong);
        solver.addConstraint(height == 31);
        if (row > 0) {
            solver.addConstraint(top == previousBottom + 12);
        } else {
            solver.addConstraint(top == 20);
        }
        solver.addConstraint(bottom == top + height);
        previousBottom = bottom;
        variables.insert(variables.end(), {labelLeft, labelWidth, fieldLeft, fieldWidth, top, height});
    }
    solver.updateVariables();
    for (auto& variable : variables) checksum += variable.value();
    return checksum;
}

int main() {
    for (int views : {250, 2500}) {
        int runs = views < 1000 ? 21 : 3;
        double time = measure(runs, [&] {
            Solver solver;
            Grid(views).add(solver);
        });
        std::printf("grid_add_%d_constraints %.1f %d\n", views * 4, time, runs);
    }

    Grid grid(2500);
    Solver solver;
    grid.add(solver);
    solver.addEditVariable(grid.width[0], strength::strong);
    double suggestion = 41;
    int edits = 2001;
    double editTime = measure(edits, [&] {
        solver.suggestValue(grid.width[0], suggestion);
        suggestion = suggestion == 41 ? 60 : 41;
    });
    std::printf("grid_10000_suggest_value %.1f %d\n", editTime, edits);

    int screenRuns = 51;
    double screenTime = measure(screenRuns, [&] { layOutScreen(100 / 2); });
    std::printf("screen_100_views_from_scratch %.1f %d\n", screenTime, screenRuns);

    int chainRuns = 1;
    double chainTime = measure(chainRuns, [&] {
        Solver solver;
        Variable previous;
        Variable first = previous;
        solver.addConstraint(previous == 0);
        for (int index = 1; index < 10000; ++index) {
            Variable next;
            solver.addConstraint(next == previous + 1);
            previous = next;
        }
        try {
            solver.addConstraint(first == previous + 1);
        } catch (const UnsatisfiableConstraint&) {
        }
    });
    std::printf("chain_10000_with_contradiction %.1f %d\n", chainTime, chainRuns);
    return 0;
}
