/// What is wrong with SVG path data, and where.
struct SVGPathDataError: Error, Equatable, CustomStringConvertible {
    /// The offset in UTF-8 bytes where reading stopped.
    let offset: Int
    let problem: String
    var description: String { "SVG path data, byte \(offset): \(problem)" }
}

/// Reads SVG path data (the `d` attribute of a `<path>`, SVG 1.1 §8.3) into
/// a `CGMutablePath`: every command (M L H V C S Q T A Z, absolute and
/// relative), implicit repeats, numbers run together (`.5.5`, `1-2`) and
/// packed arc flags (`a1 1 0 011 1`). Arcs become cubic Béziers, as the
/// specification's appendix F.6 describes.
///
/// Data that breaks the grammar, or a number that is not finite, is an
/// error naming the byte it was found at; nothing is guessed.
struct SVGPathDataReader {
    private let bytes: [UInt8]
    private var index = 0
    private let path = CGMutablePath()
    private var current = CGPoint.zero
    private var subpathStart = CGPoint.zero
    /// The last control point of a cubic or quadratic segment, for the
    /// smooth commands (S, T) that reflect it; nil after anything else.
    private var lastCubicControl: CGPoint?
    private var lastQuadControl: CGPoint?

    /// The path `data` describes.
    static func path(_ data: String) throws -> CGMutablePath {
        var reader = SVGPathDataReader(bytes: Array(data.utf8))
        try reader.readAll()
        return reader.path
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ problem: String) -> SVGPathDataError {
        SVGPathDataError(offset: index, problem: problem)
    }

    private mutating func readAll() throws {
        skipSeparators()
        guard index < bytes.count else { return }
        guard bytes[index] == UInt8(ascii: "M") || bytes[index] == UInt8(ascii: "m") else {
            throw error("path data must start with a moveto (M or m)")
        }
        while index < bytes.count {
            let command = bytes[index]
            index += 1
            try read(command)
            skipSeparators()
        }
    }

    private mutating func read(_ command: UInt8) throws {
        let relative = command >= UInt8(ascii: "a")
        let origin = relative ? current : .zero
        switch command | 0x20 {
        case UInt8(ascii: "z"):
            path.closeSubpath()
            current = subpathStart
            clearControls()
        case UInt8(ascii: "m"):
            // The first pair moves; further pairs are implicit linetos.
            var point = try readPoint(relativeTo: origin)
            path.move(to: point)
            subpathStart = point
            current = point
            clearControls()
            while hasNumber() {
                point = try readPoint(relativeTo: relative ? current : .zero)
                lineTo(point)
            }
        case UInt8(ascii: "l"):
            repeat { lineTo(try readPoint(relativeTo: relative ? current : .zero)) } while hasNumber()
        case UInt8(ascii: "h"):
            repeat { lineTo(CGPoint(x: try readNumber() + (relative ? current.x : 0), y: current.y)) } while hasNumber()
        case UInt8(ascii: "v"):
            repeat { lineTo(CGPoint(x: current.x, y: try readNumber() + (relative ? current.y : 0))) } while hasNumber()
        case UInt8(ascii: "c"):
            repeat {
                let base = relative ? current : .zero
                let c1 = try readPoint(relativeTo: base), c2 = try readPoint(relativeTo: base), end = try readPoint(relativeTo: base)
                curveTo(end, c1, c2)
            } while hasNumber()
        case UInt8(ascii: "s"):
            repeat {
                let base = relative ? current : .zero
                let c2 = try readPoint(relativeTo: base), end = try readPoint(relativeTo: base)
                curveTo(end, reflection(of: lastCubicControl), c2)
            } while hasNumber()
        case UInt8(ascii: "q"):
            repeat {
                let base = relative ? current : .zero
                let control = try readPoint(relativeTo: base), end = try readPoint(relativeTo: base)
                quadTo(end, control)
            } while hasNumber()
        case UInt8(ascii: "t"):
            repeat { quadTo(try readPoint(relativeTo: relative ? current : .zero), reflection(of: lastQuadControl)) } while hasNumber()
        case UInt8(ascii: "a"):
            repeat {
                let rx = try readNumber(), ry = try readNumber(), rotation = try readNumber()
                let largeArc = try readFlag(), sweep = try readFlag()
                let end = try readPoint(relativeTo: relative ? current : .zero)
                arcTo(end, radii: CGSize(width: rx, height: ry), rotation: rotation * .pi / 180, largeArc: largeArc, sweep: sweep)
            } while hasNumber()
        default:
            index -= 1
            throw error("\"\(Character(Unicode.Scalar(command)))\" is not a path command")
        }
    }

    // MARK: Segments

    private mutating func clearControls() {
        lastCubicControl = nil
        lastQuadControl = nil
    }

    private mutating func lineTo(_ point: CGPoint) {
        path.addLine(to: point)
        current = point
        clearControls()
    }

    private mutating func curveTo(_ end: CGPoint, _ control1: CGPoint, _ control2: CGPoint) {
        path.addCurve(to: end, control1: control1, control2: control2)
        current = end
        lastCubicControl = control2
        lastQuadControl = nil
    }

    private mutating func quadTo(_ end: CGPoint, _ control: CGPoint) {
        path.addQuadCurve(to: end, control: control)
        current = end
        lastQuadControl = control
        lastCubicControl = nil
    }

    /// The previous control point mirrored about the current point, or the
    /// current point when the previous segment had none of that kind.
    private func reflection(of control: CGPoint?) -> CGPoint {
        guard let control else { return current }
        return CGPoint(x: 2 * current.x - control.x, y: 2 * current.y - control.y)
    }

    /// An elliptical arc from the current point to `end`, as cubic Béziers
    /// of at most a quarter turn each (SVG 1.1, appendix F.6.5 and F.6.6).
    private mutating func arcTo(_ end: CGPoint, radii: CGSize, rotation: CGFloat, largeArc: Bool, sweep: Bool) {
        let start = current
        var rx = abs(radii.width), ry = abs(radii.height)
        guard start != end else { return }
        guard rx > 0, ry > 0 else { lineTo(end); return }
        let cosφ = cos(rotation), sinφ = sin(rotation)
        let dx = (start.x - end.x) / 2, dy = (start.y - end.y) / 2
        let x1 = cosφ * dx + sinφ * dy, y1 = -sinφ * dx + cosφ * dy
        let scale = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if scale > 1 { rx *= scale.squareRoot(); ry *= scale.squareRoot() }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coefficient = denominator > 0 ? (max(numerator, 0) / denominator).squareRoot() : 0
        if largeArc == sweep { coefficient = -coefficient }
        let cx1 = coefficient * rx * y1 / ry, cy1 = -coefficient * ry * x1 / rx
        let centre = CGPoint(x: cosφ * cx1 - sinφ * cy1 + (start.x + end.x) / 2,
                             y: sinφ * cx1 + cosφ * cy1 + (start.y + end.y) / 2)
        let startAngle = atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
        var sweepAngle = atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx) - startAngle
        if sweep, sweepAngle < 0 { sweepAngle += 2 * .pi }
        if !sweep, sweepAngle > 0 { sweepAngle -= 2 * .pi }
        guard sweepAngle.isFinite else { lineTo(end); return }
        let segments = max(Int((abs(sweepAngle) / (.pi / 2)).rounded(.up)), 1)
        let step = sweepAngle / CGFloat(segments)
        let k = 4 / 3 * tan(step / 4)
        func onEllipse(_ x: CGFloat, _ y: CGFloat) -> CGPoint {
            CGPoint(x: centre.x + rx * cosφ * x - ry * sinφ * y, y: centre.y + rx * sinφ * x + ry * cosφ * y)
        }
        var angle = startAngle
        for segment in 0..<segments {
            let next = angle + step
            let c1 = onEllipse(cos(angle) - k * sin(angle), sin(angle) + k * cos(angle))
            let c2 = onEllipse(cos(next) + k * sin(next), sin(next) - k * cos(next))
            // The last segment ends exactly where the data says.
            let point = segment == segments - 1 ? end : onEllipse(cos(next), sin(next))
            path.addCurve(to: point, control1: c1, control2: c2)
            angle = next
        }
        current = end
        clearControls()
    }

    // MARK: Tokens

    private mutating func skipSeparators() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: ",")].contains(bytes[index]) { index += 1 }
    }

    /// Whether a number comes next (after separators), as another set of
    /// arguments for the same command.
    private mutating func hasNumber() -> Bool {
        skipSeparators()
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }

    private mutating func readPoint(relativeTo origin: CGPoint) throws -> CGPoint {
        let x = try readNumber(), y = try readNumber()
        return CGPoint(x: origin.x + x, y: origin.y + y)
    }

    /// An arc flag: one "0" or "1", which may be followed at once by the
    /// next number.
    private mutating func readFlag() throws -> Bool {
        skipSeparators()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
            throw error("an arc flag must be 0 or 1")
        }
        index += 1
        return bytes[index - 1] == UInt8(ascii: "1")
    }

    /// A number: sign, digits, a point and digits, an exponent. It ends
    /// where the grammar says, so "1.5.5" is 1.5 then .5.
    private mutating func readNumber() throws -> CGFloat {
        skipSeparators()
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var count = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            count += digits()
        }
        guard count > 0 else {
            index = start
            throw error(start < bytes.count ? "a number was expected" : "the data ends where a number was expected")
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            let beforeExponent = index
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            if digits() == 0 { index = beforeExponent }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("\(text) is not a finite number")
        }
        return CGFloat(value)
    }
}
