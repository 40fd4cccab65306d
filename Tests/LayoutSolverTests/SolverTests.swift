import TestExpectations
import Testing
import LayoutSolver

@Suite struct SolverTests {
    @Test func requiredEqualitiesDetermineTheSolution() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(x + y, .equal, Expression(constant: 20)))
        try solver.add(Constraint(Expression(x), .equal, 2 * y))
        #expect(abs(solver.value(of: x) - 40.0 / 3) < 1e-9)
        #expect(abs(solver.value(of: y) - 20.0 / 3) < 1e-9)
    }

    @Test func inequalitiesBoundAnOptionalPreference() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(Expression(x), .greaterThanOrEqual, Expression(constant: 10)))
        try solver.add(Constraint(Expression(x), .lessThanOrEqual, Expression(constant: 20)))
        let low = Constraint(Expression(x), .equal, Expression(constant: 0), strength: Strength(250))
        try solver.add(low)
        expectEqual(solver.value(of: x), 10)
        try solver.remove(low)
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 30), strength: Strength(250)))
        expectEqual(solver.value(of: x), 20)
    }

    /// Auto Layout's priorities are not weights: any number of weaker
    /// constraints give way to one stronger one.
    @Test func aStrongerConstraintOutweighsAnyNumberOfWeakerOnes() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 100), strength: Strength(751)))
        for _ in 0..<10 {
            try solver.add(Constraint(Expression(x), .equal, Expression(constant: 0), strength: Strength(750)))
        }
        expectEqual(solver.value(of: x), 100)
    }

    @Test func equalStrengthsSumTheirErrors() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 100), strength: Strength(500)))
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 0), strength: Strength(500)))
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 0), strength: Strength(500)))
        expectEqual(solver.value(of: x), 0)
    }

    @Test func aContradictoryRequiredEqualityIsRefusedAndChangesNothing() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 10)))
        try solver.add(Constraint(Expression(y), .equal, x + 5))
        let conflicting = Constraint(Expression(y), .equal, Expression(constant: 20))
        #expect(throws: SolverError.self) { try solver.add(conflicting) }
        #expect(!solver.contains(conflicting))
        expectEqual(solver.value(of: x), 10)
        expectEqual(solver.value(of: y), 15)
        expectEqual(solver.constraintCount, 2)
    }

    @Test func aContradictoryRequiredInequalityIsRefusedAndChangesNothing() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(Expression(x), .greaterThanOrEqual, Expression(constant: 10)))
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 12), strength: Strength(250)))
        let conflicting = Constraint(Expression(x), .lessThanOrEqual, Expression(constant: 5))
        #expect(throws: SolverError.self) { try solver.add(conflicting) }
        expectEqual(solver.value(of: x), 12)
        try solver.add(Constraint(Expression(x), .lessThanOrEqual, Expression(constant: 11)))
        expectEqual(solver.value(of: x), 11)
    }

    @Test func aRedundantRequiredEqualityIsAccepted() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 10)))
        try solver.add(Constraint(Expression(y), .equal, x + 5))
        let implied = Constraint(Expression(y), .equal, Expression(constant: 15))
        try solver.add(implied)
        try solver.remove(implied)
        expectEqual(solver.value(of: y), 15)
    }

    @Test func nonFiniteNumbersAreRefused() throws {
        let solver = Solver()
        let x = Variable("x")
        let bad = Constraint(Expression(x), .equal, Expression(constant: .nan))
        #expect(throws: SolverError.self) { try solver.add(bad) }
        let infinite = Constraint(Double.infinity * x, .equal, Expression(constant: 1))
        #expect(throws: SolverError.self) { try solver.add(infinite) }
        try solver.addEditVariable(x, strength: Strength(750))
        #expect(throws: SolverError.self) { try solver.suggestValue(.nan, for: x) }
        expectEqual(solver.constraintCount, 1)
    }

    @Test func unknownAndDuplicateRequestsAreErrors() throws {
        let solver = Solver()
        let x = Variable("x")
        let constraint = Constraint(Expression(x), .equal, Expression(constant: 1))
        #expect(throws: SolverError.self) { try solver.remove(constraint) }
        try solver.add(constraint)
        #expect(throws: SolverError.self) { try solver.add(constraint) }
        #expect(throws: SolverError.self) { try solver.suggestValue(3, for: x) }
        #expect(throws: SolverError.self) { try solver.addEditVariable(x, strength: .required) }
    }

    @Test func editVariablesFollowSuggestionsWithinRequiredBounds() throws {
        let solver = Solver()
        let left = Variable("left")
        let width = Variable("width")
        let right = Variable("right")
        try solver.add(Constraint(Expression(right), .equal, left + width))
        try solver.add(Constraint(Expression(width), .equal, Expression(constant: 50)))
        try solver.add(Constraint(Expression(right), .lessThanOrEqual, Expression(constant: 300)))
        try solver.add(Constraint(Expression(left), .greaterThanOrEqual, Expression(constant: 0)))
        try solver.addEditVariable(left, strength: Strength(750))
        for suggestion in [10.0, 120, 400, -30, 200] {
            try solver.suggestValue(suggestion, for: left)
            let expected = min(max(suggestion, 0), 250)
            expectEqual(solver.value(of: left), expected)
            expectEqual(solver.value(of: right), expected + 50)
        }
        try solver.removeEditVariable(left)
        #expect(!solver.hasEditVariable(left))
    }

    @Test func addingAnEditVariableDoesNotMoveIt() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 40), strength: Strength(250)))
        try solver.addEditVariable(x, strength: Strength(750))
        expectEqual(solver.value(of: x), 40)
    }

    @Test func changingARequiredConstantResolves() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        let offset = Constraint(Expression(x), .equal, y + 10)
        try solver.add(offset)
        try solver.add(Constraint(Expression(y), .equal, Expression(constant: 5)))
        expectEqual(solver.value(of: x), 15)
        try solver.setConstant(of: offset, to: -20)
        expectEqual(solver.value(of: x), 25)
    }

    @Test func changingAnInequalityConstantResolves() throws {
        let solver = Solver()
        let x = Variable("x")
        let cap = Constraint(Expression(x), .lessThanOrEqual, Expression(constant: 100))
        try solver.add(cap)
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 1000), strength: Strength(250)))
        expectEqual(solver.value(of: x), 100)
        try solver.setConstant(of: cap, to: -40)
        expectEqual(solver.value(of: x), 40)
        try solver.setConstant(of: cap, to: -400)
        expectEqual(solver.value(of: x), 400)
    }

    @Test func aContradictoryConstantChangeIsUndone() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(Expression(x), .lessThanOrEqual, Expression(constant: 10)))
        let pin = Constraint(Expression(x), .equal, Expression(constant: 5))
        try solver.add(pin)
        #expect(throws: SolverError.self) { try solver.setConstant(of: pin, to: -15) }
        expectEqual(pin.expression.constant, -5)
        expectEqual(solver.value(of: x), 5)
        try solver.setConstant(of: pin, to: -8)
        expectEqual(solver.value(of: x), 8)
    }

    @Test func changingTheConstantOfAnImpliedEqualityChecksIt() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 10)))
        try solver.add(Constraint(Expression(y), .equal, x + 5))
        let implied = Constraint(Expression(y), .equal, Expression(constant: 15))
        try solver.add(implied)
        #expect(throws: SolverError.self) { try solver.setConstant(of: implied, to: -16) }
        #expect(solver.contains(implied))
        expectEqual(solver.value(of: y), 15)
    }

    @Test func removingEveryConstraintForgetsTheVariables() throws {
        let solver = Solver()
        let x = Variable("x")
        let constraint = Constraint(Expression(x), .equal, Expression(constant: 7))
        try solver.add(constraint)
        solver.updateVariables()
        expectEqual(x.value, 7)
        try solver.remove(constraint)
        expectEqual(solver.value(of: x), 0)
        expectEqual(solver.constraintCount, 0)
    }

    @Test func ambiguityIsReported() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(x + y, .equal, Expression(constant: 10)))
        #expect(solver.isAmbiguous(x) || solver.isAmbiguous(y))
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 3)))
        #expect(!solver.isAmbiguous(x))
        #expect(!solver.isAmbiguous(y))
    }

    /// A pull weaker than every other constraint picks one of the
    /// solutions; asked to ignore it, the solver still calls the variable free.
    @Test func aWeakPullPicksASolutionWithoutHidingTheAmbiguity() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(x + y, .equal, Expression(constant: 10)))
        let pull = Constraint(Expression(x), .equal, Expression(constant: 4), strength: Strength(0.5))
        try solver.add(pull)
        expectEqual(solver.value(of: x), 4)
        expectEqual(solver.value(of: y), 6)
        #expect(!solver.isAmbiguous(x))
        #expect(solver.isAmbiguous(x, ignoring: Strength(0.5)))
        #expect(!solver.isAmbiguous(x, ignoring: Strength(0.25)))
    }

    /// A chain of 1,000 variables each 1 after the previous one (the
    /// benchmark runs 10,000 in a release build).
    @Test func aLongChainSolves() throws {
        let solver = Solver()
        var previous = Variable("v0")
        try solver.add(Constraint(Expression(previous), .equal, Expression(constant: 0)))
        let first = previous
        for index in 1...1_000 {
            let next = Variable("v\(index)")
            try solver.add(Constraint(Expression(next), .equal, previous + 1))
            previous = next
        }
        expectEqual(solver.value(of: previous), 1_000)
        let closing = Constraint(Expression(first), .equal, previous + 1)
        #expect(throws: SolverError.self) { try solver.add(closing) }
        expectEqual(solver.value(of: previous), 1_000)
    }

    /// The rows a constant change or a removal reaches are found through the
    /// solver's column index (symbol → rows): every row of a chain holds the
    /// first constraint's marker, gained through substitutions, so a change
    /// of that constant must reach all of them, and cutting the chain must
    /// leave each half consistent.
    @Test func changesReachEveryRowThatHoldsTheirMarker() throws {
        let solver = Solver()
        let x = (0..<300).map { Variable("x\($0)") }
        let start = Constraint(Expression(x[0]), .equal, Expression(constant: 0))
        try solver.add(start)
        var links: [Constraint] = []
        for index in 1..<x.count {
            links.append(Constraint(Expression(x[index]), .equal, x[index - 1] + 1))
            try solver.add(links.last!)
        }
        try solver.setConstant(of: start, to: -7)  // x0 - 7 = 0
        #expect(x.indices.allSatisfy { solver.value(of: x[$0]) == Double($0 + 7) })
        // Cut the chain at 150 and hang its second half from 1,000.
        try solver.remove(links[149])
        try solver.add(Constraint(Expression(x[150]), .equal, Expression(constant: 1_000)))
        #expect((0..<150).allSatisfy { solver.value(of: x[$0]) == Double($0 + 7) })
        #expect((150..<300).allSatisfy { solver.value(of: x[$0]) == Double(1_000 + $0 - 150) })
        // A weak edit on the last variable cannot move the required chain.
        try solver.addEditVariable(x[299], strength: Strength(250))
        try solver.suggestValue(5, for: x[299])
        expectEqual(solver.value(of: x[299]), 1_149)
        try solver.setConstant(of: start, to: 0)
        #expect(solver.value(of: x[149]) == 149 && solver.value(of: x[299]) == 1_149)
    }
}

/// Systems that once came out wrong, kept as they were found.
@Suite struct SolverRegressionTests {
    /// Three views of intrinsic widths 40, 60 and 80 in 300 points, their
    /// centres equally far apart (a stack view's equal centering).
    @Test func equalCentering() throws {
        let solver = Solver()
        var x: [Variable] = []
        var w: [Variable] = []
        for index in 0..<3 {
            x.append(Variable("x\(index)"))
            w.append(Variable("w\(index)"))
            let intrinsic = Double([40, 60, 80][index])
            try solver.add(Constraint(Expression(w[index]), .lessThanOrEqual, Expression(constant: intrinsic), strength: Strength(250)))
            try solver.add(Constraint(Expression(w[index]), .greaterThanOrEqual, Expression(constant: intrinsic), strength: Strength(750)))
        }
        let gx = [Variable("g0x"), Variable("g1x")]
        let gw = [Variable("g0w"), Variable("g1w")]
        try solver.add(Constraint(Expression(x[0]), .equal, Expression(constant: 0)))
        try solver.add(Constraint(x[2] + w[2], .equal, Expression(constant: 300)))
        for gap in 0..<2 {
            try solver.add(Constraint(Expression(x[gap + 1]), .greaterThanOrEqual, x[gap] + w[gap]))
            try solver.add(Constraint(Expression(gx[gap]), .equal, x[gap] + 0.5 * w[gap]))
            try solver.add(Constraint(gx[gap] + gw[gap], .equal, x[gap + 1] + 0.5 * w[gap + 1]))
        }
        try solver.add(Constraint(Expression(gw[1]), .equal, Expression(gw[0])))
        #expect(abs(solver.value(of: x[1]) - 110) < 1e-9)
        #expect(abs(solver.value(of: w[1]) - 60) < 1e-9)
    }
}
