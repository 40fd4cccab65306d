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
/// - A column index (each symbol → the rows that contain it) lets a
///   substitution, a pivot's ratio test and a constant change visit only
///   the rows that hold the symbol. kiwi, like the paper, scans every row
///   for each of them, which makes adding the n-th constraint cost O(n)
///   even when it touches two rows. Dummy symbols are left out of the
///   index: they never enter the basis, and a chain of required equalities
///   puts every earlier dummy into each later row (n²/2 entries for n
///   links), so the operations that look for one (a required equality's
///   constant changed, or the equality removed) scan the rows instead.
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

    @exclusivity(unchecked) private var kinds: [SymbolKind] = []
    /// Each symbol's row in `rows`, or -1 when it is a parameter.
    @exclusivity(unchecked) private var rowIndex: [Int] = []
    @exclusivity(unchecked) private var rows: [Row] = []
    @exclusivity(unchecked) private var basics: [Int] = []

    /// For each symbol but the dummies, the basic symbols whose rows contain it. Kept
    /// loosely, which keeps it cheap: when a row gains a symbol its basic
    /// is appended, but a row that loses one (a sum that cancels, a row
    /// that leaves the tableau) is not looked for. So every reader checks
    /// each entry against the row, and `compactColumn` drops the stale and
    /// repeated entries of a column when it is read, or when it has
    /// doubled since it was last compacted.
    @exclusivity(unchecked) private var columns: [[Int]] = []
    /// The length past which a column is compacted as it grows.
    @exclusivity(unchecked) private var columnLimits: [Int] = []
    /// Per symbol, the compaction that last kept its row (to drop repeats).
    @exclusivity(unchecked) private var compactionMarks: [Int] = []
    @exclusivity(unchecked) private var compactions = 0
    /// Scratch: the symbols a row merge brought into a row.
    @exclusivity(unchecked) private var addedSymbols: [Int] = []
    /// The symbols whose objective coefficients changed since the tableau
    /// was last optimal (``enteringSymbol()``); emptied as each addition
    /// and removal starts, when the tableau is optimal.
    @exclusivity(unchecked) private var touchedSymbols: [Int] = []
    /// Scratch: the basic symbols of the rows that hold a symbol (``collectHolders(of:)``).
    @exclusivity(unchecked) private var holders: [Int] = []

    private var symbolOfVariable: [Variable: Int] = [:]
    private var variableUses: [Int: (variable: Variable, count: Int)] = [:]
    private var records: [ObjectIdentifier: Record] = [:]
    private var edits: [Variable: EditRecord] = [:]
    /// Strongest first.
    @exclusivity(unchecked) private var levels: [Level] = []
    private var artificial: Row?
    @exclusivity(unchecked) private var infeasibleRows: [Int] = []

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
        touchedSymbols.removeAll(keepingCapacity: true)

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
        touchedSymbols.removeAll(keepingCapacity: true)
        if !constraint.strength.isRequired, let level = existingLevelIndex(for: constraint.strength) {
            insertIntoObjective(record.errors.0, level: level, coefficient: -1)
            if record.errors.1 != Self.noSymbol {
                insertIntoObjective(record.errors.1, level: level, coefficient: -1)
            }
            levels[level].constraintCount -= 1
            if levels[level].constraintCount == 0 {
                // Its symbols are no longer outweighed by it.
                touchObjective(with: levels[level].row)
                levels.remove(at: level)
            }
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
    ///
    /// Constraints of strength `ignoredStrength` or weaker do not count: a
    /// variable held only by them is still free (a debugging pull that
    /// picked one of the solutions does not make the layout any less
    /// ambiguous).
    public func isAmbiguous(_ variable: Variable, ignoring ignoredStrength: Strength = Strength(0)) -> Bool {
        guard let symbol = symbolOfVariable[variable] else { return true }
        let index = rowIndex[symbol]
        guard index >= 0 else { return true }
        for cell in rows[index].cells {
            switch kinds[cell.symbol] {
            case .external: return true
            case .dummy: continue
            case .slack, .error:
                var costs = false
                for level in levels where level.strength > ignoredStrength && level.row.coefficient(for: cell.symbol) != 0 {
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
        columns.removeAll()
        columnLimits.removeAll()
        compactionMarks.removeAll()
        compactions = 0
        touchedSymbols.removeAll()
    }

    // MARK: - Symbols and rows

    private static let smallestColumnLimit = 16

    private func newSymbol(_ kind: SymbolKind) -> Int {
        kinds.append(kind)
        rowIndex.append(-1)
        columns.append([])
        columnLimits.append(Self.smallestColumnLimit)
        compactionMarks.append(0)
        return kinds.count - 1
    }

    /// Notes in the column index that the row of `basic` now holds `symbol`.
    private func noteSymbol(_ symbol: Int, inRowOf basic: Int) {
        guard kinds[symbol] != .dummy else { return }
        columns[symbol].append(basic)
        if columns[symbol].count > columnLimits[symbol] { compactColumn(symbol) }
    }

    /// Leaves in `symbol`'s column exactly the basic symbols whose rows
    /// hold it, once each.
    private func compactColumn(_ symbol: Int) {
        compactions += 1
        var column = columns[symbol]
        columns[symbol] = []
        var kept = 0
        for basic in column {
            let index = rowIndex[basic]
            guard index >= 0, compactionMarks[basic] != compactions, rows[index].contains(symbol) else { continue }
            compactionMarks[basic] = compactions
            column[kept] = basic
            kept += 1
        }
        column.removeSubrange(kept...)
        columnLimits[symbol] = max(Self.smallestColumnLimit, 2 * kept)
        columns[symbol] = column
    }

    /// Fills `holders` with the basic symbols of the rows that hold
    /// `symbol`, once each: from its column, or for a dummy by looking at
    /// every row.
    private func collectHolders(of symbol: Int) {
        holders.removeAll(keepingCapacity: true)
        if kinds[symbol] == .dummy {
            for index in rows.indices where rows[index].contains(symbol) { holders.append(basics[index]) }
        } else {
            compactColumn(symbol)
            holders.append(contentsOf: columns[symbol])
        }
    }

    /// Sorts the entries of `infeasibleRows` from `start` on by row, which
    /// is the order a scan of every row found them in: the dual simplex
    /// takes them last first, and keeping that order keeps its pivots.
    private func sortNewInfeasibleRows(from start: Int) {
        guard infeasibleRows.count - start > 1 else { return }
        infeasibleRows[start...].sort { rowIndex[$0] < rowIndex[$1] }
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
        for cell in row.cells { noteSymbol(cell.symbol, inRowOf: basic) }
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
                row.insert(rows[index], times: term.coefficient, added: &addedSymbols)
                addedSymbols.removeAll(keepingCapacity: true)
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
    /// went negative. The symbol is in no row afterwards (it becomes basic,
    /// or its constraint leaves), so its column is emptied.
    private func substitute(_ symbol: Int, with row: Row) {
        collectHolders(of: symbol)
        columns[symbol] = []
        columnLimits[symbol] = Self.smallestColumnLimit
        let firstInfeasible = infeasibleRows.count
        for basic in holders {
            let index = rowIndex[basic]
            guard rows[index].substitute(symbol, with: row, added: &addedSymbols) else { continue }
            for added in addedSymbols { noteSymbol(added, inRowOf: basic) }
            addedSymbols.removeAll(keepingCapacity: true)
            if isRestricted(basic) && rows[index].constant < 0 { infeasibleRows.append(basic) }
        }
        sortNewInfeasibleRows(from: firstInfeasible)
        for index in levels.indices where levels[index].row.substitute(symbol, with: row, added: &addedSymbols) {
            touchObjective(with: row)
        }
        if artificial != nil { artificial!.substitute(symbol, with: row, added: &addedSymbols) }
        addedSymbols.removeAll(keepingCapacity: true)
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
        for basic in columns[artificialSymbol] where rowIndex[basic] >= 0 { rows[rowIndex[basic]].remove(artificialSymbol) }
        columns[artificialSymbol] = []
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
            levels[level].row.insert(rows[index], times: coefficient, added: &addedSymbols)
            addedSymbols.removeAll(keepingCapacity: true)
            touchObjective(with: rows[index])
        } else {
            levels[level].row.insert(symbol, coefficient)
            touchedSymbols.append(symbol)
        }
    }

    /// A symbol whose increase lowers the objective: its first non-zero
    /// coefficient, strongest level first, is negative; of those, the one
    /// in the strongest level with the lowest number, which is what a scan
    /// of every level would pick.
    ///
    /// Only symbols whose objective coefficients changed since the tableau
    /// was last optimal can be such a symbol (``touchedSymbols``), so only
    /// those are looked at: the objective holds every error symbol, and
    /// reading all of it after each addition was a fifth of a screen's
    /// layout. The ones that turn out not to qualify are dropped; a later
    /// change touches them again.
    private func enteringSymbol() -> Int {
        var best = Self.noSymbol
        var bestLevel = Int.max
        var kept = 0
        for position in touchedSymbols.indices {
            let symbol = touchedSymbols[position]
            guard kinds[symbol] != .dummy, let level = strongestLevel(holding: symbol),
                  levels[level].row.coefficient(for: symbol) < 0 else { continue }
            touchedSymbols[kept] = symbol
            kept += 1
            if level < bestLevel || (level == bestLevel && symbol < best) {
                best = symbol
                bestLevel = level
            }
        }
        touchedSymbols.removeSubrange(kept...)
        return best
    }

    /// The strongest level whose row holds `symbol`.
    private func strongestLevel(holding symbol: Int) -> Int? {
        for level in levels.indices where levels[level].row.contains(symbol) { return level }
        return nil
    }

    /// Notes that the objective's coefficients of `row`'s symbols changed.
    private func touchObjective(with row: Row) {
        for cell in row.cells { touchedSymbols.append(cell.symbol) }
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
            // The restricted row that limits the entering symbol most (the
            // first in row order among equals, as a scan of every row finds).
            var leaving = -1
            var smallestRatio = Double.infinity
            collectHolders(of: entering)
            for basic in holders where isRestricted(basic) {
                let index = rowIndex[basic]
                let coefficient = rows[index].coefficient(for: entering)
                if coefficient < 0 {
                    let ratio = -rows[index].constant / coefficient
                    if ratio < smallestRatio || (ratio == smallestRatio && index < leaving) {
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
        collectHolders(of: marker)
        let firstInfeasible = infeasibleRows.count
        for basic in holders {
            let index = rowIndex[basic]
            rows[index].constant += rows[index].coefficient(for: marker) * shift
            switch kinds[basic] {
            case .external: break
            case .dummy: if !isNearZero(rows[index].constant) { consistent = false }
            case .slack, .error: if rows[index].constant < 0 { infeasibleRows.append(basic) }
            }
        }
        sortNewInfeasibleRows(from: firstInfeasible)
        return consistent
    }

    /// The row to pivot the marker of a constraint being removed into: a
    /// restricted row the marker limits least, else any row holding it.
    /// Among equals, the one a scan of every row in order would pick.
    private func rowToLeave(forMarker marker: Int) -> Int? {
        var negative: (index: Int, ratio: Double)?
        var positive: (index: Int, ratio: Double)?
        var unrestricted: Int?
        func isBetter(_ ratio: Double, _ index: Int, than best: (index: Int, ratio: Double)?) -> Bool {
            guard let best else { return true }
            return ratio < best.ratio || (ratio == best.ratio && index < best.index)
        }
        collectHolders(of: marker)
        for basic in holders {
            let index = rowIndex[basic]
            let coefficient = rows[index].coefficient(for: marker)
            if !isRestricted(basic) {
                unrestricted = max(unrestricted ?? index, index)
            } else if coefficient < 0 {
                let ratio = -rows[index].constant / coefficient
                if isBetter(ratio, index, than: negative) { negative = (index, ratio) }
            } else {
                let ratio = rows[index].constant / coefficient
                if isBetter(ratio, index, than: positive) { positive = (index, ratio) }
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
