/// An unknown of a constraint system: a quantity the solver chooses, such as
/// a view's left edge or width.
///
/// A variable is an identity: two variables with the same name are still two
/// unknowns. It knows nothing of the solvers it is used in; ask a solver for
/// its value with ``Solver/value(of:)``, or call ``Solver/updateVariables()``
/// and read ``value``.
public final class Variable: Hashable, CustomStringConvertible {
    /// A name for messages and debugging; it plays no part in solving.
    public let name: String
    /// The value the last ``Solver/updateVariables()`` of a solver using this
    /// variable gave it (0 until then).
    public internal(set) var value: Double = 0

    public init(_ name: String = "") {
        self.name = name
    }

    public static func == (lhs: Variable, rhs: Variable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { name.isEmpty ? "v\(UInt(bitPattern: ObjectIdentifier(self).hashValue) & 0xffff)" : name }
}

/// A variable times a coefficient.
public struct Term {
    public var variable: Variable
    public var coefficient: Double

    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// A linear expression: a sum of terms plus a constant.
///
/// Expressions are built with the usual operators from variables and numbers:
/// `2 * x + y - 10`. A variable may appear in several terms; the solver adds
/// them up.
public struct Expression: CustomStringConvertible {
    public var terms: [Term]
    public var constant: Double

    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    public init(_ variable: Variable) {
        self.init([Term(variable)])
    }

    public init(constant: Double) {
        self.init([], constant: constant)
    }

    /// Whether every coefficient and the constant are finite numbers.
    public var isFinite: Bool {
        guard constant.isFinite else { return false }
        for term in terms where !term.coefficient.isFinite { return false }
        return true
    }

    /// The expression's value with the variables' current ``Variable/value``.
    public var value: Double {
        var sum = constant
        for term in terms { sum += term.coefficient * term.variable.value }
        return sum
    }

    public var description: String {
        var parts: [String] = []
        for term in terms {
            parts.append(term.coefficient == 1 ? "\(term.variable)" : "\(term.coefficient)*\(term.variable)")
        }
        if constant != 0 || parts.isEmpty { parts.append("\(constant)") }
        return parts.joined(separator: " + ")
    }
}

// MARK: - Operators

public func * (coefficient: Double, variable: Variable) -> Expression {
    Expression([Term(variable, coefficient)])
}

public func * (variable: Variable, coefficient: Double) -> Expression {
    coefficient * variable
}

public func * (coefficient: Double, expression: Expression) -> Expression {
    var result = expression
    for index in result.terms.indices { result.terms[index].coefficient *= coefficient }
    result.constant *= coefficient
    return result
}

public func * (expression: Expression, coefficient: Double) -> Expression {
    coefficient * expression
}

public func / (expression: Expression, divisor: Double) -> Expression {
    (1 / divisor) * expression
}

public func + (lhs: Expression, rhs: Expression) -> Expression {
    Expression(lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
}

public func + (lhs: Expression, rhs: Variable) -> Expression { lhs + Expression(rhs) }
public func + (lhs: Variable, rhs: Expression) -> Expression { Expression(lhs) + rhs }
public func + (lhs: Variable, rhs: Variable) -> Expression { Expression(lhs) + Expression(rhs) }
public func + (lhs: Expression, rhs: Double) -> Expression { lhs + Expression(constant: rhs) }
public func + (lhs: Double, rhs: Expression) -> Expression { Expression(constant: lhs) + rhs }
public func + (lhs: Variable, rhs: Double) -> Expression { Expression(lhs) + rhs }
public func + (lhs: Double, rhs: Variable) -> Expression { lhs + Expression(rhs) }

public prefix func - (expression: Expression) -> Expression { -1 * expression }
public prefix func - (variable: Variable) -> Expression { -1 * variable }

public func - (lhs: Expression, rhs: Expression) -> Expression { lhs + -rhs }
public func - (lhs: Expression, rhs: Variable) -> Expression { lhs + -rhs }
public func - (lhs: Variable, rhs: Expression) -> Expression { Expression(lhs) + -rhs }
public func - (lhs: Variable, rhs: Variable) -> Expression { Expression(lhs) + -rhs }
public func - (lhs: Expression, rhs: Double) -> Expression { lhs + -rhs }
public func - (lhs: Double, rhs: Expression) -> Expression { lhs + -rhs }
public func - (lhs: Variable, rhs: Double) -> Expression { Expression(lhs) + -rhs }
public func - (lhs: Double, rhs: Variable) -> Expression { lhs + -rhs }
