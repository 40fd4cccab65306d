/// Coefficients smaller than this are treated as zero, so that round-off
/// does not leave symbols in rows or start pivots that change nothing.
let nearZeroThreshold = 1.0e-8

@inline(__always) func isNearZero(_ value: Double) -> Bool {
    value < nearZeroThreshold && value > -nearZeroThreshold
}

/// A symbol's coefficient in a row.
struct Cell {
    var symbol: Int
    var coefficient: Double
}

/// One row of the tableau, `basic = constant + Σ coefficient · symbol`, or,
/// while a constraint is being added, the equation `0 = constant + Σ …`.
///
/// The cells are kept sorted by symbol, so that a lookup is a binary search
/// and adding a multiple of another row is one merge of two sorted runs.
struct Row {
    var constant: Double
    var cells: [Cell]

    init(constant: Double = 0, cells: [Cell] = []) {
        self.constant = constant
        self.cells = cells
    }

    /// The position of `symbol` in `cells`, or where it would be inserted.
    @inline(__always) private func position(of symbol: Int) -> (index: Int, found: Bool) {
        var low = 0
        var high = cells.count
        while low < high {
            let middle = (low + high) >> 1
            let candidate = cells[middle].symbol
            if candidate == symbol { return (middle, true) }
            if candidate < symbol { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    func contains(_ symbol: Int) -> Bool {
        position(of: symbol).found
    }

    func coefficient(for symbol: Int) -> Double {
        let (index, found) = position(of: symbol)
        return found ? cells[index].coefficient : 0
    }

    /// Adds `coefficient · symbol`, dropping the cell if the sum is zero.
    /// Returns whether the symbol is new to the row.
    @discardableResult
    mutating func insert(_ symbol: Int, _ coefficient: Double) -> Bool {
        let (index, found) = position(of: symbol)
        if found {
            let sum = cells[index].coefficient + coefficient
            if isNearZero(sum) {
                cells.remove(at: index)
            } else {
                cells[index].coefficient = sum
            }
            return false
        }
        guard !isNearZero(coefficient) else { return false }
        cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: index)
        return true
    }

    /// Adds `multiplier · other`, constant included, and appends to `added`
    /// the symbols the row did not have before (for the solver's column index).
    mutating func insert(_ other: Row, times multiplier: Double, added: inout [Int]) {
        constant += other.constant * multiplier
        if other.cells.count == 1 {
            let symbol = other.cells[0].symbol
            if insert(symbol, other.cells[0].coefficient * multiplier) { added.append(symbol) }
            return
        }
        var merged: [Cell] = []
        merged.reserveCapacity(cells.count + other.cells.count)
        var left = 0
        var right = 0
        let ours = cells
        let theirs = other.cells
        while left < ours.count && right < theirs.count {
            let a = ours[left]
            let b = theirs[right]
            if a.symbol < b.symbol {
                merged.append(a)
                left += 1
            } else if b.symbol < a.symbol {
                let scaled = b.coefficient * multiplier
                if !isNearZero(scaled) {
                    merged.append(Cell(symbol: b.symbol, coefficient: scaled))
                    added.append(b.symbol)
                }
                right += 1
            } else {
                let sum = a.coefficient + b.coefficient * multiplier
                if !isNearZero(sum) { merged.append(Cell(symbol: a.symbol, coefficient: sum)) }
                left += 1
                right += 1
            }
        }
        while left < ours.count {
            merged.append(ours[left])
            left += 1
        }
        while right < theirs.count {
            let b = theirs[right]
            let scaled = b.coefficient * multiplier
            if !isNearZero(scaled) {
                merged.append(Cell(symbol: b.symbol, coefficient: scaled))
                added.append(b.symbol)
            }
            right += 1
        }
        cells = merged
    }

    mutating func remove(_ symbol: Int) {
        let (index, found) = position(of: symbol)
        if found { cells.remove(at: index) }
    }

    mutating func negate() {
        constant = -constant
        for index in cells.indices { cells[index].coefficient = -cells[index].coefficient }
    }

    /// Turns `0 = constant + a·symbol + rest` into `symbol = -(constant + rest)/a`.
    mutating func solve(for symbol: Int) {
        let (index, found) = position(of: symbol)
        precondition(found, "solving a row for a symbol it does not contain")
        let factor = -1 / cells[index].coefficient
        cells.remove(at: index)
        constant *= factor
        for cellIndex in cells.indices { cells[cellIndex].coefficient *= factor }
    }

    /// Turns `basic = constant + a·entering + rest` into `entering = …`, with
    /// `basic` now among the parameters.
    mutating func solve(for entering: Int, replacing basic: Int) {
        insert(basic, -1)
        solve(for: entering)
    }

    /// Replaces `symbol` with what `row` says it equals, appending to
    /// `added` the symbols that came in. Returns whether the row contained
    /// the symbol.
    @discardableResult
    mutating func substitute(_ symbol: Int, with row: Row, added: inout [Int]) -> Bool {
        let (index, found) = position(of: symbol)
        guard found else { return false }
        let coefficient = cells[index].coefficient
        cells.remove(at: index)
        insert(row, times: coefficient, added: &added)
        return true
    }
}
