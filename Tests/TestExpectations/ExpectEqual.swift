import Testing

// Equality checks for every test target, as a function instead of the macro.
//
// `#expect(a == b)` expands at each use into a call whose `==` the compiler
// resolves against every `==` in scope; in these test targets that took
// 25–60 ms of type checking per use (measured with
// `-debug-time-expression-type-checking`), over two minutes of processor time
// for the whole suite. Here the comparison is type-checked once, and each use
// is an ordinary generic call of a few milliseconds. A failure still names
// the caller's line and shows both values.

/// Records an issue at the caller's line unless `actual == expected`.
public func expectEqual<Value: Equatable>(
    _ actual: Value, _ expected: Value, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual == expected, comment, sourceLocation: sourceLocation)
}
