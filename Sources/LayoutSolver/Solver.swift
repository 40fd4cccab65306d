/// An incremental Cassowary solver: a simplex tableau kept optimal and
/// feasible while constraints are added and removed one at a time, and while
/// constants change.
///
/// How it works (Badros, Borning and Stuckey, "The Cassowary Linear
/// Arithmetic Constraint Solving Algorithm", 2001):
///
/// - Every constraint becomes one equation `0 = constant + Σ coefficient ·
///   symbol`. An inequality gets a *slack* symbol (≥ 0); an optional
///   constraint gets *error* symbols (≥ 0) that measure how far it is
///   violated; a required equality gets a *dummy* symbol (always 0) that
///   marks its row.
/// - The tableau keeps each row solved for one *basic* symbol; the other
///   symbols are parameters, at 0. So a basic symbol's value is its row's
///   constant, and the rows of restricted symbols (slack, error) must keep a
///   constant ≥ 0 (feasibility).
/// - The objective is the error symbols, weighed by strength. Strengths are
///   symbolic: the objective is one row per strength, compared strongest
///   first, so a weaker constraint never outweighs a stronger one.
/// - Adding a constraint solves its row for a symbol and substitutes it into
///   the other rows; a row with no usable symbol is added through an
///   artificial variable that the simplex drives to 0, or that shows the
///   constraint contradicts the required ones. Then the primal simplex
///   restores optimality.
/// - Changing a constant (an edit variable's suggested value, or a
///   constraint's constant) shifts the row constants where the constraint's
///   marker symbol appears; that keeps optimality but may break feasibility,
///   which the dual simplex restores, usually in a pivot or two.
public final class Solver {
    private enum SymbolKind: UInt8 {
        case external
        case slack
        case error
        case dummy
    }

    /// What the solver remembers of an added constraint.
    private struct Record {
        var constraint: Constraint
        /// The symbol that marks the constraint's row: its slack, its first
        /// error symbol, or its dummy.
        var marker: Int
        /// The marker's coefficient in the constraint's own row, before any
        /// sign change: shifting the constant by δ is replacing the marker by
        /// `marker + δ / markerCoefficient`.
        var markerCoefficient: Double
        /// The error symbols, which are in the objective (none if required).
        var errors: (Int, Int)
        var variables: [Int]
    }

    private struct EditRecord {
        var constraint: Constraint
    }

    /// One strength's part of the objective.
    private struct Level {
        var strength: Strength
        var row: Row
        var constraintCount: Int
    }

    private static let noSymbol = -1

    private var kinds: [SymbolKind] = []
    /// Each symbol's row in `rows`, or -1 when it is a parameter.
    private var rowIndex: [Int] = []
    private var rows: [Row] = []
    private var basics: [Int] = []

    private var symbolOfVariable: [Variable: Int] = [:]
    private var variableUses: [Int: (variable: Variable, count: Int)] = [:]
    private var records: [ObjectIdentifier: Record] = [:]
    private var edits: [Variable: EditRecord] = [:]
    /// Strongest first.
    private var levels: [Level] = []
    private var artificial: Row?
    private var infeasibleRows: [Int] = []

    public init() {}

    // MARK: - Public interface

    /// The number of constraints in the solver, edit constraints included.
    public var constraintCount: Int { records.count }

    public func contains(_ constraint: Constraint) -> Bool {
        records[ObjectIdentifier(constraint)] != nil
    }

    /// Adds a constraint and re-solves.
    ///
    /// Throws ``SolverError/unsatisfiableConstraint(_:)`` if it is required
    /// and contradicts the required constraints already added; the solver is
    /// then as it was.
    public func add(_ constraint: Constraint) throws(SolverError) {
        let key = ObjectIdentifier(constraint)
        guard records[key] == nil else { throw .duplicateConstraint("\(constraint)") }
        guard constraint.expression.isFinite else { throw .nonFiniteValue("\(constraint)") }

        var (row, record) = makeRow(for: constraint)
        var subject = chooseSubject(row, record)
        if subject == Self.noSymbol && containsOnlyDummies(row) {
            if !isNearZero(row.constant) {
                forgetUnusedVariables(record.variables)
                throw .unsatisfiableConstraint("\(constraint)")
            }
            subject = record.marker
        }
        if subject == Self.noSymbol {
            if !addThroughArtificialVariable(row) {
                forgetUnusedVariables(record.variables)
                // The attempt's pivots kept the old system feasible, not optimal.
                optimize()
                throw .unsatisfiableConstraint("\(constraint)")
            }
        } else {
            row.solve(for: subject)
            substitute(subject, with: row)
            appendRow(row, basic: subject)
        }
        for symbol in record.variables { variableUses[symbol]!.count += 1 }
        if !constraint.strength.isRequired {
            let level = levelIndex(for: constraint.strength)
            levels[level].constraintCount += 1
            insertIntoObjective(record.errors.0, level: level, coefficient: 1)
            if record.errors.1 != Self.noSymbol {
                insertIntoObjective(record.errors.1, level: level, coefficient: 1)
            }
        }
        records[key] = record
        optimize()
    }

    /// Removes a constraint and re-solves.
    public func remove(_ constraint: Constraint) throws(SolverError) {
        guard let record = records.removeValue(forKey: ObjectIdentifier(constraint)) else {
            throw .unknownConstraint("\(constraint)")
        }
        if !constraint.strength.isRequired, let level = existingLevelIndex(for: constraint.strength) {
            insertIntoObjective(record.errors.0, level: level, coefficient: -1)
            if record.errors.1 != Self.noSymbol {
                insertIntoObjective(record.errors.1, level: level, coefficient: -1)
            }
            levels[level].constraintCount -= 1
            if levels[level].constraintCount == 0 { levels.remove(at: level) }
        }
        let marker = record.marker
        if rowIndex[marker] >= 0 {
            _ = removeRow(of: marker)
        } else if let index = rowToLeave(forMarker: marker) {
            let leaving = basics[index]
            var row = removeRow(at: index)
            row.solve(for: marker, replacing: leaving)
            substitute(marker, with: row)
        }
        optimize()
        for symbol in record.variables { variableUses[symbol]!.count -= 1 }
        forgetUnusedVariables(record.variables)
    }

    /// Sets the constant of an added constraint's expression (its left side
    /// minus its right side) and re-solves incrementally.
    ///
    /// Throws ``SolverError/unsatisfiableConstraint(_:)`` if the constraint is
    /// required and the new constant contradicts the other required
    /// constraints; the constant and the solution are then left as they were.
    public func setConstant(of constraint: Constraint, to constant: Double) throws(SolverError) {
        guard let record = records[ObjectIdentifier(constraint)] else { throw .unknownConstraint("\(constraint)") }
        guard constant.isFinite else { throw .nonFiniteValue("constant \(constant) of \(constraint)") }
        let delta = constant - constraint.expression.constant
        if delta == 0 { return }
        if kinds[record.marker] == .dummy && rowIndex[record.marker] >= 0 {
            // The required equality is implied by the others: its row holds
            // no parameter to absorb the change, so it is added again.
            try readd(constraint, withConstant: constant)
            return
        }
        constraint.expression.constant = constant
        let shift = delta / record.markerCoefficient
        if shiftMarker(record.marker, by: shift) && dualOptimize() { return }

        // The new constant contradicts required constraints: undo the shift
        // (the tableau after the dual simplex's pivots still describes the
        // same system) and restore feasibility for the old constant.
        constraint.expression.constant -= delta
        _ = shiftMarker(record.marker, by: -shift)
        infeasibleRows.removeAll(keepingCapacity: true)
        for index in rows.indices where isRestricted(basics[index]) && rows[index].constant < 0 {
            infeasibleRows.append(basics[index])
        }
        _ = dualOptimize()
        throw .unsatisfiableConstraint("\(constraint)")
    }

    /// Makes `variable` an edit variable: a variable held, at `strength`, at
    /// the value last suggested for it (at first, its current value).
    public func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
        guard edits[variable] == nil else { throw .duplicateEditVariable("\(variable)") }
        guard !strength.isRequired else { throw .requiredEditStrength("\(variable)") }
        let constraint = Constraint(Expression(variable) - value(of: variable), .equal, strength: strength)
        try add(constraint)
        edits[variable] = EditRecord(constraint: constraint)
    }

    public func removeEditVariable(_ variable: Variable) throws(SolverError) {
        guard let edit = edits.removeValue(forKey: variable) else { throw .unknownEditVariable("\(variable)") }
        try remove(edit.constraint)
    }

    public func hasEditVariable(_ variable: Variable) -> Bool {
        edits[variable] != nil
    }

    /// Suggests a value for an edit variable and re-solves incrementally.
    public func suggestValue(_ value: Double, for variable: Variable) throws(SolverError) {
        guard let edit = edits[variable] else { throw .unknownEditVariable("\(variable)") }
        guard value.isFinite else { throw .nonFiniteValue("suggested value \(value) for \(variable)") }
        // The edit constraint is optional, so the change can always be absorbed.
        try setConstant(of: edit.constraint, to: -value)
    }

    /// The variable's value in the current solution (0 for a variable the
    /// solver does not know).
    public func value(of variable: Variable) -> Double {
        guard let symbol = symbolOfVariable[variable] else { return 0 }
        let index = rowIndex[symbol]
        return index >= 0 ? rows[index].constant : 0
    }

    /// Sets ``Variable/value`` of every variable in the solver.
    public func updateVariables() {
        for (variable, symbol) in symbolOfVariable {
            let index = rowIndex[symbol]
            variable.value = index >= 0 ? rows[index].constant : 0
        }
    }

    /// Whether the constraints leave `variable` free to move without making
    /// any constraint worse: it is a parameter, or its row has a parameter
    /// that is unrestricted or costs nothing to change.
    public func isAmbiguous(_ variable: Variable) -> Bool {
        guard let symbol = symbolOfVariable[variable] else { return true }
        let index = rowIndex[symbol]
        guard index >= 0 else { return true }
        for cell in rows[index].cells {
            switch kinds[cell.symbol] {
            case .external: return true
            case .dummy: continue
            case .slack, .error:
                var costs = false
                for level in levels where level.row.coefficient(for: cell.symbol) != 0 {
                    costs = true
                    break
                }
                if !costs { return true }
            }
        }
        return false
    }

    /// Removes every constraint and variable.
    public func reset() {
        kinds.removeAll()
        rowIndex.removeAll()
        rows.removeAll()
        basics.removeAll()
        symbolOfVariable.removeAll()
        variableUses.removeAll()
        records.removeAll()
        edits.removeAll()
        levels.removeAll()
        artificial = nil
        infeasibleRows.removeAll()
    }

    // MARK: - Symbols and rows

    private func newSymbol(_ kind: SymbolKind) -> Int {
        kinds.append(kind)
        rowIndex.append(-1)
        return kinds.count - 1
    }

    private func symbol(for variable: Variable) -> Int {
        if let symbol = symbolOfVariable[variable] { return symbol }
        let symbol = newSymbol(.external)
        symbolOfVariable[variable] = symbol
        variableUses[symbol] = (variable, 0)
        return symbol
    }

    /// Drops the variables among `symbols` that no constraint uses any more.
    /// A basic one takes its row with it; a parameter stays in the rows it is
    /// in (at 0, where it changes nothing) but is no longer known by name.
    private func forgetUnusedVariables(_ symbols: [Int]) {
        for symbol in symbols {
            guard let use = variableUses[symbol], use.count == 0 else { continue }
            variableUses[symbol] = nil
            symbolOfVariable[use.variable] = nil
            if rowIndex[symbol] >= 0 { _ = removeRow(of: symbol) }
        }
    }

    private func isRestricted(_ symbol: Int) -> Bool {
        kinds[symbol] != .external
    }

    private func appendRow(_ row: Row, basic: Int) {
        rowIndex[basic] = rows.count
        rows.append(row)
        basics.append(basic)
    }

    private func removeRow(at index: Int) -> Row {
        let last = rows.count - 1
        if index != last {
            rows.swapAt(index, last)
            basics.swapAt(index, last)
            rowIndex[basics[index]] = index
        }
        rowIndex[basics[last]] = -1
        basics.removeLast()
        return rows.removeLast()
    }

    private func removeRow(of symbol: Int) -> Row {
        removeRow(at: rowIndex[symbol])
    }

    /// The constraint's equation in terms of the current parameters.
    private func makeRow(for constraint: Constraint) -> (Row, Record) {
        let expression = constraint.expression
        var row = Row(constant: expression.constant)
        var variables: [Int] = []
        for term in expression.terms where !isNearZero(term.coefficient) {
            let symbol = symbol(for: term.variable)
            if !variables.contains(symbol) { variables.append(symbol) }
            let index = rowIndex[symbol]
            if index >= 0 {
                row.insert(rows[index], times: term.coefficient)
            } else {
                row.insert(symbol, term.coefficient)
            }
        }
        let marker: Int
        let markerCoefficient: Double
        var errors = (Self.noSymbol, Self.noSymbol)
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            // expression ≤ 0 is expression + slack = 0; ≥ is expression - slack = 0.
            // An optional one may be violated by its error: ± error.
            let sign: Double = constraint.relation == .lessThanOrEqual ? 1 : -1
            marker = newSymbol(.slack)
            markerCoefficient = sign
            row.insert(marker, sign)
            if !constraint.strength.isRequired {
                errors.0 = newSymbol(.error)
                row.insert(errors.0, -sign)
            }
        case .equal:
            if constraint.strength.isRequired {
                marker = newSymbol(.dummy)
                markerCoefficient = 1
                row.insert(marker, 1)
            } else {
                // expression = errorPlus - errorMinus.
                errors = (newSymbol(.error), newSymbol(.error))
                marker = errors.0
                markerCoefficient = -1
                row.insert(errors.0, -1)
                row.insert(errors.1, 1)
            }
        }
        if row.constant < 0 { row.negate() }
        let record = Record(
            constraint: constraint, marker: marker, markerCoefficient: markerCoefficient,
            errors: errors, variables: variables
        )
        return (row, record)
    }

    /// The symbol to solve a new row for: an unrestricted one if there is
    /// one, else the constraint's own slack or error symbol if its
    /// coefficient is negative (so that it stays ≥ 0).
    private func chooseSubject(_ row: Row, _ record: Record) -> Int {
        for cell in row.cells where kinds[cell.symbol] == .external { return cell.symbol }
        for candidate in [record.marker, record.errors.0, record.errors.1] where candidate != Self.noSymbol {
            let kind = kinds[candidate]
            if (kind == .slack || kind == .error) && row.coefficient(for: candidate) < 0 { return candidate }
        }
        return Self.noSymbol
    }

    private func containsOnlyDummies(_ row: Row) -> Bool {
        for cell in row.cells where kinds[cell.symbol] != .dummy { return false }
        return true
    }

    /// Replaces `symbol` by `row` everywhere, noting restricted rows that
    /// went negative.
    private func substitute(_ symbol: Int, with row: Row) {
        for index in rows.indices {
            if rows[index].substitute(symbol, with: row) {
                let basic = basics[index]
                if isRestricted(basic) && rows[index].constant < 0 { infeasibleRows.append(basic) }
            }
        }
        for index in levels.indices { levels[index].row.substitute(symbol, with: row) }
        artificial?.substitute(symbol, with: row)
    }

    private func pivot(rowAt index: Int, entering: Int) {
        let leaving = basics[index]
        var row = removeRow(at: index)
        row.solve(for: entering, replacing: leaving)
        substitute(entering, with: row)
        appendRow(row, basic: entering)
    }

    /// Adds a row that has no symbol to solve for: an artificial symbol is
    /// made its basic symbol and minimised; the row is satisfiable exactly
    /// when that minimum is 0.
    private func addThroughArtificialVariable(_ row: Row) -> Bool {
        let artificialSymbol = newSymbol(.slack)
        appendRow(row, basic: artificialSymbol)
        artificial = row
        optimize(artificialPhase: true)
        let satisfiable = isNearZero(artificial!.constant)
        artificial = nil
        if rowIndex[artificialSymbol] >= 0 {
            // Still basic. If its value is not 0 the constraint cannot hold;
            // the other rows still describe the old system, so dropping this
            // one undoes the attempt.
            var artificialRow = removeRow(of: artificialSymbol)
            if !satisfiable || artificialRow.cells.isEmpty { return satisfiable }
            var entering = Self.noSymbol
            for cell in artificialRow.cells where kinds[cell.symbol] != .dummy {
                entering = cell.symbol
                break
            }
            // Only dummies: the row holds at 0 whatever they are; nothing to keep.
            if entering == Self.noSymbol { return true }
            artificialRow.solve(for: entering, replacing: artificialSymbol)
            substitute(entering, with: artificialRow)
            appendRow(artificialRow, basic: entering)
        }
        // A parameter now: at 0 for good, which is the new constraint holding.
        for index in rows.indices { rows[index].remove(artificialSymbol) }
        for index in levels.indices { levels[index].row.remove(artificialSymbol) }
        return true
    }

    // MARK: - Objective

    private func existingLevelIndex(for strength: Strength) -> Int? {
        for index in levels.indices where levels[index].strength == strength { return index }
        return nil
    }

    private func levelIndex(for strength: Strength) -> Int {
        if let index = existingLevelIndex(for: strength) { return index }
        var index = 0
        while index < levels.count && levels[index].strength > strength { index += 1 }
        levels.insert(Level(strength: strength, row: Row(), constraintCount: 0), at: index)
        return index
    }

    private func insertIntoObjective(_ symbol: Int, level: Int, coefficient: Double) {
        let index = rowIndex[symbol]
        if index >= 0 {
            levels[level].row.insert(rows[index], times: coefficient)
        } else {
            levels[level].row.insert(symbol, coefficient)
        }
    }

    /// A symbol whose increase lowers the objective: its first non-zero
    /// coefficient, strongest level first, is negative.
    private func enteringSymbol() -> Int {
        for levelIndex in levels.indices {
            for cell in levels[levelIndex].row.cells where cell.coefficient < 0 && kinds[cell.symbol] != .dummy {
                var outweighed = false
                for stronger in 0..<levelIndex where levels[stronger].row.coefficient(for: cell.symbol) != 0 {
                    outweighed = true
                    break
                }
                if !outweighed { return cell.symbol }
            }
        }
        return Self.noSymbol
    }

    private func enteringSymbol(of row: Row) -> Int {
        for cell in row.cells where cell.coefficient < 0 && kinds[cell.symbol] != .dummy { return cell.symbol }
        return Self.noSymbol
    }

    /// Primal simplex: pivots until no symbol can lower the objective.
    private func optimize(artificialPhase: Bool = false) {
        while true {
            let entering = artificialPhase ? enteringSymbol(of: artificial!) : enteringSymbol()
            if entering == Self.noSymbol { return }
            // The restricted row that limits the entering symbol most.
            var leaving = -1
            var smallestRatio = Double.infinity
            for index in rows.indices where isRestricted(basics[index]) {
                let coefficient = rows[index].coefficient(for: entering)
                if coefficient < 0 {
                    let ratio = -rows[index].constant / coefficient
                    if ratio < smallestRatio {
                        smallestRatio = ratio
                        leaving = index
                    }
                }
            }
            // Nothing limits it: the objective is unbounded, which error
            // symbols (≥ 0) cannot be; stop rather than loop.
            if leaving < 0 { return }
            pivot(rowAt: leaving, entering: entering)
        }
    }

    /// Whether `a / aDivisor` is lexicographically below `b / bDivisor`,
    /// comparing the symbols' objective coefficients strongest level first.
    private func objectiveRatio(of a: Int, _ aDivisor: Double, isBelow b: Int, _ bDivisor: Double) -> Bool {
        for level in levels {
            let left = level.row.coefficient(for: a) / aDivisor
            let right = level.row.coefficient(for: b) / bDivisor
            if isNearZero(left - right) { continue }
            return left < right
        }
        return false
    }

    /// Dual simplex: pivots the infeasible rows back to feasibility while
    /// keeping the objective optimal. Returns false if a row cannot be made
    /// feasible, which means the required constraints contradict.
    private func dualOptimize() -> Bool {
        while let leaving = infeasibleRows.popLast() {
            let index = rowIndex[leaving]
            guard index >= 0, rows[index].constant < 0 else { continue }
            if rows[index].constant > -nearZeroThreshold {
                rows[index].constant = 0
                continue
            }
            var entering = Self.noSymbol
            var enteringCoefficient = 0.0
            for cell in rows[index].cells where cell.coefficient > 0 && kinds[cell.symbol] != .dummy {
                if entering == Self.noSymbol
                    || objectiveRatio(of: cell.symbol, cell.coefficient, isBelow: entering, enteringCoefficient) {
                    entering = cell.symbol
                    enteringCoefficient = cell.coefficient
                }
            }
            if entering == Self.noSymbol {
                infeasibleRows.removeAll(keepingCapacity: true)
                return false
            }
            pivot(rowAt: index, entering: entering)
        }
        return true
    }

    /// Replaces the marker by `marker + shift` in every row: the tableau of
    /// the system whose constraint has the new constant. Returns false if a
    /// required equality implied by the others would no longer hold.
    private func shiftMarker(_ marker: Int, by shift: Double) -> Bool {
        var consistent = true
        let markerRow = rowIndex[marker]
        if markerRow >= 0 {
            rows[markerRow].constant -= shift
            if rows[markerRow].constant < 0 { infeasibleRows.append(marker) }
            return true
        }
        for index in rows.indices {
            let coefficient = rows[index].coefficient(for: marker)
            if coefficient == 0 { continue }
            rows[index].constant += coefficient * shift
            let basic = basics[index]
            switch kinds[basic] {
            case .external: break
            case .dummy: if !isNearZero(rows[index].constant) { consistent = false }
            case .slack, .error: if rows[index].constant < 0 { infeasibleRows.append(basic) }
            }
        }
        return consistent
    }

    /// The row to pivot the marker of a constraint being removed into: a
    /// restricted row the marker limits least, else any row holding it.
    private func rowToLeave(forMarker marker: Int) -> Int? {
        var negative: (index: Int, ratio: Double)?
        var positive: (index: Int, ratio: Double)?
        var unrestricted: Int?
        for index in rows.indices {
            let coefficient = rows[index].coefficient(for: marker)
            if coefficient == 0 { continue }
            if !isRestricted(basics[index]) {
                unrestricted = index
            } else if coefficient < 0 {
                let ratio = -rows[index].constant / coefficient
                if negative == nil || ratio < negative!.ratio { negative = (index, ratio) }
            } else {
                let ratio = rows[index].constant / coefficient
                if positive == nil || ratio < positive!.ratio { positive = (index, ratio) }
            }
        }
        return negative?.index ?? positive?.index ?? unrestricted
    }

    /// Removes and adds a constraint again with a new constant, keeping the
    /// old one if the new one cannot hold.
    private func readd(_ constraint: Constraint, withConstant constant: Double) throws(SolverError) {
        let old = constraint.expression.constant
        try remove(constraint)
        constraint.expression.constant = constant
        do {
            try add(constraint)
        } catch {
            constraint.expression.constant = old
            try? add(constraint)
            throw error
        }
    }
}
