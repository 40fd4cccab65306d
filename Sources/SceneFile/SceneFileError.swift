/// What is wrong with a scene file, and where: the line and column, the
/// field (`views[2].subviews[0].frame`; empty for a JSON syntax error) and
/// a sentence saying what was expected.
public struct SceneFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var position: SourcePosition
    public var field: String
    public var message: String

    public init(position: SourcePosition, field: String, message: String) {
        self.position = position
        self.field = field
        self.message = message
    }

    /// `3:14: views[0].frame: expected …`, to follow a file name and a colon.
    public var description: String {
        field.isEmpty ? "\(position): \(message)" : "\(position): \(field): \(message)"
    }
}
