/// Apple's visual format language: a line of ASCII art per axis that
/// becomes constraints, `H:|-[label]-8-[field(>=120@750)]-|`.
///
/// Grammar (Apple's Auto Layout Guide): an optional `H:` or `V:`, an
/// optional `|` and connection at the start, views in brackets with
/// optional predicates in parentheses (`[name(>=50,<=width@750)]`),
/// connections between them (nothing: 0; `-`: standard spacing;
/// `-N-`, `-(>=N@P)-`: spacing predicates), and an optional connection
/// and `|` at the end. A predicate is an optional relation (`==`, `<=`,
/// `>=`), a number, a metric name or (inside a view) a view name, and an
/// optional `@priority`. Standard spacing is 8 points between views and
/// 20 to the superview's edge.
extension NSLayoutConstraint {
    /// Alignment and direction options of the visual format language.
    public struct FormatOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        public static let alignAllLeft = FormatOptions(rawValue: 1 << 1)
        public static let alignAllRight = FormatOptions(rawValue: 1 << 2)
        public static let alignAllTop = FormatOptions(rawValue: 1 << 3)
        public static let alignAllBottom = FormatOptions(rawValue: 1 << 4)
        public static let alignAllLeading = FormatOptions(rawValue: 1 << 5)
        public static let alignAllTrailing = FormatOptions(rawValue: 1 << 6)
        public static let alignAllCenterX = FormatOptions(rawValue: 1 << 9)
        public static let alignAllCenterY = FormatOptions(rawValue: 1 << 10)
        public static let alignAllLastBaseline = FormatOptions(rawValue: 1 << 11)
        public static let alignAllFirstBaseline = FormatOptions(rawValue: 1 << 12)
        public static let directionLeadingToTrailing = FormatOptions([])
        public static let directionLeftToRight = FormatOptions(rawValue: 1 << 16)
        public static let directionRightToLeft = FormatOptions(rawValue: 2 << 16)
        public static let spacingEdgeToEdge = FormatOptions([])
        public static let spacingBaselineToBaseline = FormatOptions(rawValue: 1 << 19)
    }

    /// The constraints a visual format string describes (not activated).
    ///
    /// A string that does not parse, or names a view or metric that is not
    /// given, is reported (with the position of the problem) and gives no
    /// constraints, where UIKit raises an exception.
    public class func constraints(withVisualFormat format: String, options opts: FormatOptions = [],
                                  metrics: [String: Any]?, views: [String: Any]) -> [NSLayoutConstraint] {
        var parser = VisualFormatParser(format: format, options: opts, metrics: metrics ?? [:], views: views)
        do {
            return try parser.parse()
        } catch {
            reportLayoutProblem("Unable to parse constraint format: \(error.message)\n\(format)\n\(String(repeating: " ", count: error.offset))^")
            return []
        }
    }
}

private struct VisualFormatError: Error {
    var message: String
    var offset: Int
}

/// One predicate: `relation object @priority`.
private struct Predicate {
    enum Object {
        case constant(CGFloat)
        case view(AnyObject)
    }

    var relation: NSLayoutConstraint.Relation = .equal
    var object: Object
    var priority: UILayoutPriority = .required
}

@MainActor
private struct VisualFormatParser {
    let characters: [Character]
    var position = 0
    let options: NSLayoutConstraint.FormatOptions
    let metrics: [String: Any]
    let views: [String: Any]
    var constraints: [NSLayoutConstraint] = []

    init(format: String, options: NSLayoutConstraint.FormatOptions, metrics: [String: Any], views: [String: Any]) {
        characters = Array(format.filter { !$0.isWhitespace })
        self.options = options
        self.metrics = metrics
        self.views = views
    }

    private var current: Character? { position < characters.count ? characters[position] : nil }

    private func fail(_ message: String) -> VisualFormatError {
        VisualFormatError(message: message, offset: position)
    }

    private mutating func consume(_ character: Character) -> Bool {
        guard current == character else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ character: Character) throws(VisualFormatError) {
        guard consume(character) else { throw fail("Expected '\(character)'") }
    }

    mutating func parse() throws(VisualFormatError) -> [NSLayoutConstraint] {
        var horizontal = true
        if characters.count >= 2 && characters[1] == ":" {
            switch characters[0] {
            case "H": horizontal = true
            case "V": horizontal = false
            default: throw fail("Expected an orientation, H or V")
            }
            position = 2
        }
        let attributes = edgeAttributes(horizontal: horizontal)
        var previous: UIView?
        var pendingConnection: [Predicate]?
        var startsAtSuperview = false
        if consume("|") {
            startsAtSuperview = true
            pendingConnection = try parseConnection(toSuperview: true)
        }
        var arranged: [UIView] = []
        while consume("[") {
            let view = try parseView(horizontal: horizontal)
            if let previous, let connection = pendingConnection {
                for predicate in connection {
                    constraints.append(make(view, attributes.start, predicate, previous, attributes.end))
                }
            } else if startsAtSuperview, let connection = pendingConnection {
                guard let parent = view.superview else { throw fail("'|' needs \(name(of: view)) to have a superview") }
                for predicate in connection {
                    constraints.append(make(view, attributes.start, predicate, parent, attributes.start))
                }
            }
            arranged.append(view)
            previous = view
            if current == "|" {
                pendingConnection = [Predicate(object: .constant(0))]
            } else if current == "-" {
                let connectionStart = position
                pendingConnection = try parseConnection(toSuperview: false)
                if current == "|" && pendingConnection.map(isStandard) == true {
                    position = connectionStart
                    pendingConnection = try parseConnection(toSuperview: true)
                }
            } else if current == "[" {
                pendingConnection = [Predicate(object: .constant(0))]
            } else {
                pendingConnection = nil
            }
        }
        guard let last = previous else { throw fail("Expected a view") }
        if consume("|") {
            guard let parent = last.superview else { throw fail("'|' needs \(name(of: last)) to have a superview") }
            for predicate in pendingConnection ?? [Predicate(object: .constant(0))] {
                constraints.append(make(parent, attributes.end, predicate, last, attributes.end))
            }
        } else if current != nil {
            throw fail("Unexpected '\(current!)'")
        }
        addAlignment(arranged, horizontal: horizontal)
        return constraints
    }

    private func isStandard(_ predicates: [Predicate]) -> Bool {
        guard predicates.count == 1, case .constant(let value) = predicates[0].object else { return false }
        return value == LayoutMetrics.systemSpacing && predicates[0].relation == .equal
    }

    private func edgeAttributes(horizontal: Bool) -> (start: NSLayoutConstraint.Attribute, end: NSLayoutConstraint.Attribute) {
        guard horizontal else { return (.top, .bottom) }
        if options.contains(.directionRightToLeft) { return (.right, .left) }
        if options.contains(.directionLeftToRight) { return (.left, .right) }
        return (.leading, .trailing)
    }

    /// `-`, `-N-`, `-(…)-` or nothing before a view.
    private mutating func parseConnection(toSuperview: Bool) throws(VisualFormatError) -> [Predicate] {
        guard consume("-") else { return [Predicate(object: .constant(0))] }
        let standard = toSuperview ? LayoutMetrics.superviewSpacing : LayoutMetrics.systemSpacing
        if current == "[" || current == "|" {
            return [Predicate(object: .constant(standard))]
        }
        let predicates: [Predicate]
        if current == "(" {
            predicates = try parsePredicateList(allowViews: false)
        } else {
            predicates = [Predicate(object: .constant(try parseConstant()))]
        }
        try expect("-")
        return predicates
    }

    private mutating func parseView(horizontal: Bool) throws(VisualFormatError) -> UIView {
        let name = parseIdentifier()
        guard !name.isEmpty else { throw fail("Expected a view name") }
        guard let view = views[name] as? UIView else { throw fail("\(name) is not a key in the views dictionary") }
        if current == "(" {
            for predicate in try parsePredicateList(allowViews: true) {
                let size: NSLayoutConstraint.Attribute = horizontal ? .width : .height
                if case .view = predicate.object {
                    constraints.append(make(view, size, predicate, nil, size))
                } else {
                    constraints.append(make(view, size, predicate, nil, .notAnAttribute))
                }
            }
        }
        try expect("]")
        return view
    }

    private mutating func parsePredicateList(allowViews: Bool) throws(VisualFormatError) -> [Predicate] {
        try expect("(")
        var predicates: [Predicate] = []
        repeat {
            var predicate = Predicate(object: .constant(0))
            if consume("=") {
                try expect("=")
            } else if consume("<") {
                try expect("=")
                predicate.relation = .lessThanOrEqual
            } else if consume(">") {
                try expect("=")
                predicate.relation = .greaterThanOrEqual
            }
            if let character = current, character.isLetter || character == "_" {
                let start = position
                let name = parseIdentifier()
                if let metric = metricValue(name) {
                    predicate.object = .constant(metric)
                } else if allowViews, let view = views[name] as? UIView {
                    predicate.object = .view(view)
                } else {
                    position = start
                    throw fail("\(name) is not a key in the metrics\(allowViews ? " or views" : "") dictionary")
                }
            } else {
                predicate.object = .constant(try parseNumber())
            }
            if consume("@") {
                let priority = try parseConstant()
                guard priority >= 1 && priority <= 1000 else { throw fail("A priority must be between 1 and 1000") }
                predicate.priority = UILayoutPriority(Float(priority))
            }
            predicates.append(predicate)
        } while consume(",")
        try expect(")")
        return predicates
    }

    private mutating func parseConstant() throws(VisualFormatError) -> CGFloat {
        if let character = current, character.isLetter || character == "_" {
            let name = parseIdentifier()
            guard let value = metricValue(name) else { throw fail("\(name) is not a key in the metrics dictionary") }
            return value
        }
        return try parseNumber()
    }

    private mutating func parseNumber() throws(VisualFormatError) -> CGFloat {
        let start = position
        _ = consume("-") || consume("+")
        while let character = current, character.isNumber || character == "." { position += 1 }
        guard let value = Double(String(characters[start..<position])), value.isFinite else {
            position = start
            throw fail("Expected a number or a metric name")
        }
        return CGFloat(value)
    }

    private mutating func parseIdentifier() -> String {
        let start = position
        while let character = current, character.isLetter || character.isNumber || character == "_" { position += 1 }
        return String(characters[start..<position])
    }

    private func metricValue(_ name: String) -> CGFloat? {
        switch metrics[name] {
        case let value as CGFloat: return value.isFinite ? value : nil
        case let value as Double: return value.isFinite ? CGFloat(value) : nil
        case let value as Float: return value.isFinite ? CGFloat(value) : nil
        case let value as Int: return CGFloat(value)
        case let value as NSNumber: return CGFloat(value.doubleValue)
        default: return nil
        }
    }

    private func name(of view: UIView) -> String {
        for (name, value) in views where (value as AnyObject) === view { return name }
        return describeLayoutItem(view)
    }

    /// `item.attribute relation other.otherAttribute + constant`; a view
    /// predicate inside brackets relates the two views' sizes.
    private func make(_ item: AnyObject, _ attribute: NSLayoutConstraint.Attribute, _ predicate: Predicate,
                      _ other: AnyObject?, _ otherAttribute: NSLayoutConstraint.Attribute) -> NSLayoutConstraint {
        let constraint: NSLayoutConstraint
        switch predicate.object {
        case .constant(let value):
            constraint = NSLayoutConstraint(item: item, attribute: attribute, relatedBy: predicate.relation,
                                            toItem: other, attribute: other == nil ? .notAnAttribute : otherAttribute,
                                            multiplier: 1, constant: value)
        case .view(let view):
            constraint = NSLayoutConstraint(item: item, attribute: attribute, relatedBy: predicate.relation,
                                            toItem: view, attribute: attribute, multiplier: 1, constant: 0)
        }
        constraint.priority = predicate.priority
        return constraint
    }

    private mutating func addAlignment(_ arranged: [UIView], horizontal: Bool) {
        let alignments: [(NSLayoutConstraint.FormatOptions, NSLayoutConstraint.Attribute)] = [
            (.alignAllLeft, .left), (.alignAllRight, .right), (.alignAllTop, .top), (.alignAllBottom, .bottom),
            (.alignAllLeading, .leading), (.alignAllTrailing, .trailing), (.alignAllCenterX, .centerX),
            (.alignAllCenterY, .centerY), (.alignAllLastBaseline, .lastBaseline), (.alignAllFirstBaseline, .firstBaseline),
        ]
        for (option, attribute) in alignments where options.contains(option) {
            // Alignment is across the format's axis.
            guard (AttributeKind(attribute).axis == .horizontal) != horizontal else {
                reportLayoutProblem("visual format: \(attribute) alignment is along the format's own axis; ignored")
                continue
            }
            for index in arranged.indices.dropFirst() {
                constraints.append(NSLayoutConstraint(item: arranged[index], attribute: attribute, relatedBy: .equal,
                                                      toItem: arranged[index - 1], attribute: attribute, multiplier: 1, constant: 0))
            }
        }
    }
}
