import Testing
import LayoutSolver

/// The solver against a brute-force one on small random systems: every
/// required constraint holds, refusals happen exactly when the required
/// constraints have no common solution, and the optional constraints'
/// errors, strongest first, are as small as they can be.
///
/// The brute force relies on a fact of linear programming: inside the box
/// 0…100 every variable is bounded, so the (lexicographic) minimum of the
/// errors, a convex piecewise-linear function, is reached at a vertex of the
/// arrangement of all the constraints' hyperplanes. It tries every vertex.
@Suite struct RandomSystemTests {
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.count))
        }
    }

    /// A constraint as the brute force sees it: `Σ coefficients·x + constant relation 0`.
    struct Model {
        var coefficients: [Double]
        var constant: Double
        var relation: Relation
        var strength: Strength
        var constraint: Constraint

        func violation(at point: [Double]) -> Double {
            var value = constant
            for index in point.indices { value += coefficients[index] * point[index] }
            switch relation {
            case .equal: return abs(value)
            case .lessThanOrEqual: return max(0, value)
            case .greaterThanOrEqual: return max(0, -value)
            }
        }
    }

    static let tolerance = 1e-6

    static func makeModel(_ coefficients: [Double], _ constant: Double, _ relation: Relation, _ strength: Strength, _ variables: [Variable]) -> Model {
        var terms: [Term] = []
        for index in coefficients.indices where coefficients[index] != 0 {
            terms.append(Term(variables[index], coefficients[index]))
        }
        let constraint = Constraint(Expression(terms, constant: constant), relation, strength: strength)
        return Model(coefficients: coefficients, constant: constant, relation: relation, strength: strength, constraint: constraint)
    }

    /// The errors of the optional constraints at `point`, summed per strength, strongest first.
    static func objective(_ models: [Model], at point: [Double], strengths: [Strength]) -> [Double] {
        var sums = [Double](repeating: 0, count: strengths.count)
        for model in models where !model.strength.isRequired {
            sums[strengths.firstIndex(of: model.strength)!] += model.violation(at: point)
        }
        return sums
    }

    static func isLexicographicallyBelow(_ a: [Double], _ b: [Double]) -> Bool {
        for index in a.indices where abs(a[index] - b[index]) > tolerance {
            return a[index] < b[index]
        }
        return false
    }

    static func solveLinearSystem(_ matrix: [[Double]], _ rhs: [Double]) -> [Double]? {
        var a = matrix
        var b = rhs
        let n = b.count
        for column in 0..<n {
            var pivot = column
            for row in column..<n where abs(a[row][column]) > abs(a[pivot][column]) { pivot = row }
            if abs(a[pivot][column]) < 1e-9 { return nil }
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            for row in 0..<n where row != column {
                let factor = a[row][column] / a[column][column]
                if factor == 0 { continue }
                for k in column..<n { a[row][k] -= factor * a[column][k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for index in 0..<n { x[index] = b[index] / a[index][index] }
        return x
    }

    static func subsets(of count: Int, size: Int) -> [[Int]] {
        if size == 0 { return [[]] }
        if count < size { return [] }
        var result: [[Int]] = []
        for rest in subsets(of: count - 1, size: size - 1) { result.append(rest + [count - 1]) }
        result += subsets(of: count - 1, size: size)
        return result
    }

    /// The lexicographically smallest objective over the feasible vertices,
    /// or nil if the required constraints have no common solution.
    static func bruteForceOptimum(_ models: [Model], variableCount: Int, strengths: [Strength]) -> [Double]? {
        var best: [Double]?
        for subset in subsets(of: models.count, size: variableCount) {
            var matrix: [[Double]] = []
            var rhs: [Double] = []
            for index in subset {
                matrix.append(models[index].coefficients)
                rhs.append(-models[index].constant)
            }
            guard let point = solveLinearSystem(matrix, rhs) else { continue }
            var feasible = true
            for model in models where model.strength.isRequired && model.violation(at: point) > tolerance {
                feasible = false
                break
            }
            guard feasible else { continue }
            let value = objective(models, at: point, strengths: strengths)
            if best == nil || isLexicographicallyBelow(value, best!) { best = value }
        }
        return best
    }

    static let strengths = [Strength(750), Strength(500), Strength(250)]

    static func randomStrength(_ random: inout SplitMix64) -> Strength {
        let pick = random.int(0...5)
        return pick < 3 ? .required : strengths[pick - 3]
    }

    /// Checks the solver's current solution against the brute force.
    static func check(_ solver: Solver, _ models: [Model], _ variables: [Variable], seed: UInt64, step: String) {
        solver.updateVariables()
        var point: [Double] = []
        for variable in variables { point.append(variable.value) }
        for model in models where model.strength.isRequired {
            #expect(model.violation(at: point) < 1e-5, "seed \(seed) \(step): \(model.constraint) violated at \(point)")
        }
        let optimum = bruteForceOptimum(models, variableCount: variables.count, strengths: strengths)
        #expect(optimum != nil, "seed \(seed) \(step): the brute force found no solution but the solver kept all constraints")
        guard let optimum else { return }
        let achieved = objective(models, at: point, strengths: strengths)
        #expect(!isLexicographicallyBelow(optimum, achieved), "seed \(seed) \(step): errors \(achieved), optimum \(optimum)")
    }

    static func runScenario(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        let variableCount = random.int(2...3)
        var variables: [Variable] = []
        for index in 0..<variableCount { variables.append(Variable("x\(index)")) }
        let solver = Solver()
        var models: [Model] = []

        // The box that keeps every variable bounded.
        for index in 0..<variableCount {
            var unit = [Double](repeating: 0, count: variableCount)
            unit[index] = 1
            for (constant, relation) in [(0.0, Relation.greaterThanOrEqual), (-100.0, .lessThanOrEqual)] {
                let model = makeModel(unit, constant, relation, .required, variables)
                try solver.add(model.constraint)
                models.append(model)
            }
        }

        let constraintCount = random.int(3...7)
        for step in 0..<constraintCount {
            var coefficients: [Double] = []
            for _ in 0..<variableCount { coefficients.append(Double(random.int(-3...3))) }
            if coefficients.allSatisfy({ $0 == 0 }) { coefficients[0] = 1 }
            let relations: [Relation] = [.equal, .lessThanOrEqual, .greaterThanOrEqual]
            let model = makeModel(
                coefficients, Double(random.int(-150...150)), relations[random.int(0...2)],
                randomStrength(&random), variables
            )
            do {
                try solver.add(model.constraint)
                models.append(model)
                check(solver, models, variables, seed: seed, step: "add \(step)")
            } catch {
                guard case .unsatisfiableConstraint = error else { throw error }
                #expect(model.strength.isRequired, "seed \(seed): an optional constraint was refused")
                let withIt = bruteForceOptimum(models + [model], variableCount: variableCount, strengths: strengths)
                #expect(withIt == nil, "seed \(seed) add \(step): \(model.constraint) refused but satisfiable")
                check(solver, models, variables, seed: seed, step: "after refusing \(step)")
            }
        }

        // Constants change, within the box's room and beyond it.
        for step in 0..<3 {
            guard models.count > 2 * variableCount else { break }
            let index = random.int(2 * variableCount...models.count - 1)
            let newConstant = Double(random.int(-150...150))
            var changed = models
            changed[index].constant = newConstant
            do {
                try solver.setConstant(of: models[index].constraint, to: newConstant)
                models = changed
                check(solver, models, variables, seed: seed, step: "constant \(step)")
            } catch {
                guard case .unsatisfiableConstraint = error else { throw error }
                #expect(bruteForceOptimum(changed, variableCount: variableCount, strengths: strengths) == nil,
                        "seed \(seed) constant \(step): change refused but satisfiable")
                check(solver, models, variables, seed: seed, step: "after refused constant \(step)")
            }
        }

        // An edit variable dragged around.
        try solver.addEditVariable(variables[0], strength: strengths[1])
        var editModel = makeModel([1] + [Double](repeating: 0, count: variableCount - 1), -solver.value(of: variables[0]), .equal, strengths[1], variables)
        for step in 0..<3 {
            let suggestion = Double(random.int(-20...120))
            try solver.suggestValue(suggestion, for: variables[0])
            editModel.constant = -suggestion
            check(solver, models + [editModel], variables, seed: seed, step: "suggest \(step)")
        }
        try solver.removeEditVariable(variables[0])

        // Constraints removed in a random order.
        while models.count > 2 * variableCount {
            let index = random.int(2 * variableCount...models.count - 1)
            try solver.remove(models[index].constraint)
            models.remove(at: index)
            check(solver, models, variables, seed: seed, step: "remove")
        }
    }

    @Test(arguments: 0..<300)
    func randomSystemMatchesBruteForce(seed: Int) throws {
        try Self.runScenario(seed: UInt64(seed) &* 7919 &+ 13)
    }
}
