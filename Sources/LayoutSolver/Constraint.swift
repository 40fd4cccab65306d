/// How a constraint's two sides compare.
public enum Relation: Sendable, CustomStringConvertible {
    case lessThanOrEqual
    case equal
    case greaterThanOrEqual

    public var description: String {
        switch self {
        case .lessThanOrEqual: "<="
        case .equal: "=="
        case .greaterThanOrEqual: ">="
        }
    }
}

/// How much a constraint matters, on Auto Layout's scale: 1000 is required,
/// anything below is optional.
///
/// Strengths are symbolic, not weights: the solver first makes the errors of
/// the strongest optional constraints as small as it can, then, without
/// giving any of that up, those of the next strength, and so on. No number of
/// constraints of strength 250 outweighs one of strength 251. Within one
/// strength the errors are summed, each counted once.
public struct Strength: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Double

    public init(_ value: Double) {
        self.value = value
    }

    /// The strength of constraints that must hold; adding one that cannot is
    /// an error.
    public static let required = Strength(1000)

    /// Whether constraints of this strength must hold.
    public var isRequired: Bool { value >= Strength.required.value }

    public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.value < rhs.value }
    public var description: String { "\(value)" }
}

/// A linear equation or inequality `expression relation 0`, with a strength.
///
/// A constraint is an identity: the solver adds and removes this object. Its
/// expression's constant may change after it is added, through
/// ``Solver/setConstant(of:to:)``, which re-solves incrementally.
public final class Constraint: CustomStringConvertible {
    /// The left side minus the right side.
    public internal(set) var expression: Expression
    public let relation: Relation
    public let strength: Strength

    /// `lhs relation rhs` at the given strength.
    public init(_ lhs: Expression, _ relation: Relation, _ rhs: Expression, strength: Strength = .required) {
        self.expression = lhs - rhs
        self.relation = relation
        self.strength = strength
    }

    /// `expression relation 0` at the given strength.
    public init(_ expression: Expression, _ relation: Relation, strength: Strength = .required) {
        self.expression = expression
        self.relation = relation
        self.strength = strength
    }

    /// Whether the variables' current ``Variable/value``s satisfy the
    /// constraint, within `tolerance`.
    public func isSatisfied(tolerance: Double = 1e-6) -> Bool {
        let value = expression.value
        switch relation {
        case .equal: return abs(value) <= tolerance
        case .lessThanOrEqual: return value <= tolerance
        case .greaterThanOrEqual: return value >= -tolerance
        }
    }

    public var description: String {
        "\(expression) \(relation) 0" + (strength.isRequired ? "" : " @\(strength)")
    }
}

/// Why a solver refused a request. The solver is unchanged after any of
/// them. Each carries a description of the constraint or variable concerned
/// (errors must be sendable; constraints and variables are not).
public enum SolverError: Error, Equatable, CustomStringConvertible {
    /// The constraint is already in the solver.
    case duplicateConstraint(String)
    /// The constraint is not in the solver.
    case unknownConstraint(String)
    /// The required constraint contradicts the required constraints already
    /// in the solver, so it was not added (or, for a constant change, its
    /// constant was left as it was).
    case unsatisfiableConstraint(String)
    /// A coefficient, constant or suggested value is NaN or infinite.
    case nonFiniteValue(String)
    /// The variable already is an edit variable.
    case duplicateEditVariable(String)
    /// The variable is not an edit variable.
    case unknownEditVariable(String)
    /// Edit variables must have an optional strength: a required one could
    /// not follow suggestions that contradict other required constraints.
    case requiredEditStrength(String)

    public var description: String {
        switch self {
        case .duplicateConstraint(let constraint): "constraint already added: \(constraint)"
        case .unknownConstraint(let constraint): "constraint not in the solver: \(constraint)"
        case .unsatisfiableConstraint(let constraint): "unsatisfiable required constraint: \(constraint)"
        case .nonFiniteValue(let what): "not a finite number: \(what)"
        case .duplicateEditVariable(let variable): "already an edit variable: \(variable)"
        case .unknownEditVariable(let variable): "not an edit variable: \(variable)"
        case .requiredEditStrength(let variable): "an edit variable cannot be required: \(variable)"
        }
    }
}
