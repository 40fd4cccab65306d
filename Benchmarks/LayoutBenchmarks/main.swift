// The layout solver's benchmark: the same constraint systems as
// kiwi_benchmark.cpp (kiwi, the C++ Cassowary behind PyPI's kiwisolver),
// run by Benchmarks/layout.sh, which prints both side by side.
//
// Each line: `name median_microseconds runs` (thread CPU time).
#if canImport(Glibc)
import Glibc
#endif
import LayoutSolver

/// The thread's CPU time, in microseconds.
func threadCPUMicroseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}

/// The median of `runs` timings of `body`, in microseconds of the thread's
/// CPU time: on a machine shared with other work, elapsed time mostly
/// measures how long the process waited for a core (a 2-core machine at a
/// load of 15 gave 20 ms elapsed for 3 ms of CPU).
func measure(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = threadCPUMicroseconds()
        try body()
        samples.append(threadCPUMicroseconds() - start)
    }
    samples.sort()
    return samples[samples.count / 2]
}

func report(_ name: String, _ microseconds: Double, _ runs: Int) {
    print("\(name) \((microseconds * 10).rounded() / 10) \(runs)")
}

/// A grid of views, four constraints each: its left edge 8 after its left
/// neighbour's right edge (or 0), its top 8 below the view above (or 0),
/// its width 40 at strength 500, its height equal to its width.
struct Grid {
    var left: [Variable] = []
    var top: [Variable] = []
    var width: [Variable] = []
    var height: [Variable] = []
    let columns: Int

    init(views: Int) {
        columns = Int(Double(views).squareRoot().rounded(.up))
        for index in 0..<views {
            left.append(Variable("l\(index)"))
            top.append(Variable("t\(index)"))
            width.append(Variable("w\(index)"))
            height.append(Variable("h\(index)"))
        }
    }

    func add(to solver: Solver) throws {
        for index in left.indices {
            let column = index % columns
            if column == 0 {
                try solver.add(Constraint(Expression(left[index]), .equal, Expression(constant: 0)))
            } else {
                try solver.add(Constraint(Expression(left[index]), .equal, left[index - 1] + width[index - 1] + 8))
            }
            if index < columns {
                try solver.add(Constraint(Expression(top[index]), .equal, Expression(constant: 0)))
            } else {
                try solver.add(Constraint(Expression(top[index]), .equal, top[index - columns] + height[index - columns] + 8))
            }
            try solver.add(Constraint(Expression(width[index]), .equal, Expression(constant: 40), strength: Strength(500)))
            try solver.add(Constraint(Expression(height[index]), .equal, Expression(width[index])))
        }
    }
}

/// A form of `rows` rows on a 390-point screen: a label hugging its text at
/// 16 from the left, a field 8 after it to 16 from the right, each row 12
/// below the one above; hugging at 251/250, compression resistance at 750.
func layOutScreen(rows: Int) throws -> Double {
    let solver = Solver()
    var previousBottom: Variable?
    var checksum = 0.0
    var variables: [Variable] = []
    for row in 0..<rows {
        let labelLeft = Variable(), labelWidth = Variable(), fieldLeft = Variable(), fieldWidth = Variable()
        let top = Variable(), height = Variable()
        let labelText = Double(40 + (row * 37) % 80)
        try solver.add(Constraint(Expression(labelLeft), .equal, Expression(constant: 16)))
        try solver.add(Constraint(Expression(fieldLeft), .equal, labelLeft + labelWidth + 8))
        try solver.add(Constraint(fieldLeft + fieldWidth, .equal, Expression(constant: 390 - 16)))
        try solver.add(Constraint(Expression(labelWidth), .lessThanOrEqual, Expression(constant: labelText), strength: Strength(251)))
        try solver.add(Constraint(Expression(labelWidth), .greaterThanOrEqual, Expression(constant: labelText), strength: Strength(750)))
        try solver.add(Constraint(Expression(fieldWidth), .lessThanOrEqual, Expression(constant: 100), strength: Strength(250)))
        try solver.add(Constraint(Expression(fieldWidth), .greaterThanOrEqual, Expression(constant: 100), strength: Strength(750)))
        try solver.add(Constraint(Expression(height), .equal, Expression(constant: 31)))
        if let previousBottom {
            try solver.add(Constraint(Expression(top), .equal, previousBottom + 12))
        } else {
            try solver.add(Constraint(Expression(top), .equal, Expression(constant: 20)))
        }
        let bottom = Variable()
        try solver.add(Constraint(Expression(bottom), .equal, top + height))
        previousBottom = bottom
        variables += [labelLeft, labelWidth, fieldLeft, fieldWidth, top, height]
    }
    for variable in variables { checksum += solver.value(of: variable) }
    return checksum
}

func runBenchmarks() throws {
    for views in [250, 2_500] {
        let constraints = views * 4
        let runs = views < 1_000 ? 21 : 3
        let time = try measure(runs) {
            let solver = Solver()
            try Grid(views: views).add(to: solver)
        }
        report("grid_add_\(constraints)_constraints", time, runs)
    }

    // One edit constant changed and re-solved, in the 10,000-constraint grid.
    let grid = Grid(views: 2_500)
    let solver = Solver()
    try grid.add(to: solver)
    try solver.addEditVariable(grid.width[0], strength: Strength(750))
    var suggestion = 41.0
    let edits = 2_001
    let editTime = try measure(edits) {
        try solver.suggestValue(suggestion, for: grid.width[0])
        suggestion = suggestion == 41 ? 60 : 41
    }
    report("grid_10000_suggest_value", editTime, edits)

    let screenRuns = 51
    let screenTime = try measure(screenRuns) { _ = try layOutScreen(rows: 100 / 2) }
    report("screen_100_views_from_scratch", screenTime, screenRuns)

    // A chain of 10,000 required equalities, then the one that closes it
    // into a contradiction (refused, the solver unchanged).
    let chainRuns = 1
    let chainTime = try measure(chainRuns) {
        let solver = Solver()
        var previous = Variable()
        let first = previous
        try solver.add(Constraint(Expression(previous), .equal, Expression(constant: 0)))
        for _ in 1..<10_000 {
            let next = Variable()
            try solver.add(Constraint(Expression(next), .equal, previous + 1))
            previous = next
        }
        do {
            try solver.add(Constraint(Expression(first), .equal, previous + 1))
        } catch {
            precondition(solver.value(of: previous) == 9_999)
        }
    }
    report("chain_10000_with_contradiction", chainTime, chainRuns)
}

do {
    try runBenchmarks()
} catch {
    print("benchmark failed: \(error)")
}
