extension String {
    /// The string as it is safe to show in a log line or a terminal: every
    /// control character (C0, DEL, C1), line and paragraph separator and
    /// bidirectional override written as an escape (`\n`, `\t`, `\u{1B}`),
    /// and the backslash itself doubled so that an escape cannot be forged.
    ///
    /// A name a client chose (its hello, a `switch` argument) is shown only
    /// this way: raw, a newline in it would forge a line of the server's log
    /// and an escape sequence would reach the user's terminal.
    public var escapedForDisplay: String {
        guard unicodeScalars.contains(where: \.needsEscapingForDisplay) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.needsEscapingForDisplay:
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension Unicode.Scalar {
    fileprivate var needsEscapingForDisplay: Bool {
        switch value {
        case 0x5C: true  // the escape character itself
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (CSI is 0x9B)
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional marks, embeddings, overrides, isolates
        default: false
        }
    }
}
