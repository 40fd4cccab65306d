/// Where something is in a file: 1-based line and column (in bytes).
public struct SourcePosition: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A JSON value as read from a file, with the position where it starts, so
/// that an error about any field can point at its line.
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Members in file order; keys are unique (the reader refuses repeats).
        case object([(key: String, keyPosition: SourcePosition, value: JSONNode)])
    }

    public var value: Value
    public var position: SourcePosition
}

/// A strict JSON reader (RFC 8259) that keeps positions. It refuses what
/// the standard does not allow, a repeated key in an object (which would
/// silently drop one of two values), numbers beyond `Double`'s range, and
/// nesting deeper than ``maximumDepth`` (which would otherwise exhaust the
/// stack on hostile input).
public struct JSONReader {
    /// Deeper nesting is refused (chosen here: far more than any scene
    /// needs, far less than the stack allows).
    public static let maximumDepth = 100

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    /// Reads the one JSON value in `bytes` (an optional UTF-8 byte order mark,
    /// then the value, with whitespace around it and nothing else).
    public static func read(_ bytes: [UInt8]) throws(SceneFileError) -> JSONNode {
        var reader = JSONReader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3; reader.lineStart = 3 }
        reader.skipWhitespace()
        let node = try reader.readValue()
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected \(reader.describeNext()) after the end of the document") }
        return node
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var position: SourcePosition { SourcePosition(line: line, column: index - lineStart + 1) }

    private func error(_ message: String, at position: SourcePosition? = nil) -> SceneFileError {
        SceneFileError(position: position ?? self.position, field: "", message: message)
    }

    private func describeNext() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func readValue() throws(SceneFileError) -> JSONNode {
        let start = position
        guard index < bytes.count else { throw error("expected a value, found the end of the file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(value: try readObject(), position: start)
        case UInt8(ascii: "["): return JSONNode(value: try readArray(), position: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try readString()), position: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(value: .bool(true), position: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(value: .bool(false), position: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(value: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(value: .number(try readNumber()), position: start)
        default: throw error("expected a value, found \(describeNext())")
        }
    }

    private mutating func expectWord(_ word: String) throws(SceneFileError) {
        let utf8 = Array(word.utf8)
        guard bytes[index...].starts(with: utf8) else { throw error("expected a value, found \(describeNext())") }
        index += utf8.count
    }

    private mutating func enter() throws(SceneFileError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func readArray() throws(SceneFileError) -> JSONNode.Value {
        try enter()
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1; depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array: expected ',' or ']', found the end of the file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error("expected ',' or ']' in an array, found \(describeNext())")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func readObject() throws(SceneFileError) -> JSONNode.Value {
        try enter()
        index += 1
        var members: [(key: String, keyPosition: SourcePosition, value: JSONNode)] = []
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1; depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyPosition = position
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key in quotes, found \(describeNext())")
            }
            let key = try readString()
            guard seen.insert(key).inserted else { throw error("the key \"\(key)\" appears twice in this object", at: keyPosition) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\", found \(describeNext())")
            }
            index += 1
            skipWhitespace()
            members.append((key, keyPosition, try readValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object: expected ',' or '}', found the end of the file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw error("expected ',' or '}' in an object, found \(describeNext())")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func readString() throws(SceneFileError) -> String {
        let start = position
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index  // start of the current run of plain bytes
        func flush(_ end: Int) throws(SceneFileError) {
            guard run < end else { return }
            guard let text = String(validating: bytes[run..<end], as: UTF8.self) else {
                throw error("a string that is not valid UTF-8", at: start)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 {
                throw error(byte == 0x0A ? "unterminated string (a line ends inside it)" : "a control character inside a string must be escaped")
            }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            try flush(index)
            index += 1
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try readHex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("a \\u escape of a lone high surrogate")
                    }
                    index += 2
                    let low = try readHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("a high surrogate not followed by a low one") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("a \\u escape of a lone low surrogate") }
                scalars.append(scalar)
            default:
                index -= 1
                throw error("unknown escape \\\(describeNext())")
            }
            run = index
        }
    }

    private mutating func readHex4() throws(SceneFileError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexDigit(bytes[index]) else {
                throw error("expected four hexadecimal digits after \\u")
            }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func readNumber() throws(SceneFileError) -> Double {
        let start = index
        let startPosition = position
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
            throw error("expected a digit after '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                throw error("a number may not start with 0 followed by digits", at: startPosition)
            }
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected a digit after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            // A number of 200,000 digits is shown by its ends, not whole.
            let shown = text.count <= 40 ? text : "\(text.prefix(20))…\(text.suffix(10)) (\(text.count) characters)"
            throw error("the number \(shown) is beyond the range of a double", at: startPosition)
        }
        return value
    }
}
