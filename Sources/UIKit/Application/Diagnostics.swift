/// A problem the application met and survived: bad input, a refused
/// operation. Each one says what was dropped or refused; nothing else is lost.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Bytes at the input port that were not a valid HID packet.
        case malformedHIDPacket
        /// A contact with bad values (NaN or infinite coordinates, an
        /// unknown or duplicate finger); the contact was dropped.
        case invalidTouch
        /// A view added to its own subtree; the hierarchy was left as it was.
        case hierarchyCycle
        /// Non-finite geometry set on a view; the old value was kept.
        case invalidGeometry
        /// A socket feeding the input port failed or closed.
        case inputPort
        /// A presentation or dismissal that could not be carried out.
        case presentation
        /// A gesture recognizer state change UIKit does not allow; the state was kept.
        case illegalGestureTransition
        /// A button or key event that is not a press (an unknown usage), or
        /// that contradicts the buttons held (down twice, up while up); dropped.
        case invalidPress
        /// A motion event out of order (a shake ending that never began); dropped.
        case invalidMotion
        /// A named action sent to a target that does not perform it; nothing ran.
        case unhandledAction
        /// A launch or scene configuration UIKit could not follow (a class
        /// that cannot be the scene or its delegate); the default was used.
        case application
        /// A drawing request that cannot be carried out (an image size that
        /// cannot be allocated); nothing was drawn.
        case invalidDrawing
        /// An Auto Layout problem: a constraint that cannot be made or
        /// activated, or required constraints that contradict each other
        /// (one is broken, and the message lists them as UIKit logs them).
        case layoutConstraints
        /// A table or collection view's data source or update that does not
        /// add up (counts that do not match, a row that does not exist), or a
        /// reuse identifier nothing was registered for. UIKit raises an
        /// exception; here the view reloads from its data source, or uses a
        /// default cell, and goes on.
        case invalidListUpdate
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}

/// Where an application reports the problems it survived. Tests read
/// ``entries``; by default each report is also printed to standard error.
@preconcurrency @MainActor
public final class DiagnosticLog {
    /// The most recent reports, oldest first, at most ``capacity`` of them.
    public private(set) var entries: [Diagnostic] = []
    public let capacity = 1000
    /// Called with each report; replace it to log elsewhere, or set nil for silence.
    public var handler: (@MainActor (Diagnostic) -> Void)? = { diagnostic in
        FileHandle.standardError.write(Data("openuikit: \(diagnostic)\n".utf8))
    }

    public init() {}

    // Not inlined: reports are rare, and where one was inlined into a hot
    // loop the compiler hoisted its exclusivity checks of this log's
    // properties out of the loop, so every pass paid for them.
    @inline(never)
    public func report(_ diagnostic: Diagnostic) {
        if entries.count == capacity { entries.removeFirst() }
        entries.append(diagnostic)
        handler?(diagnostic)
    }

    public func removeAll() { entries.removeAll() }
}

/// Marks the main queue, on which the main actor's work runs (whatever
/// thread drains it: a test runner may drain it from another thread than
/// the process's first).
private let mainQueueMark: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Records a problem in the application's diagnostics from code that may
/// run on any thread (drawing, snapshots): at once on the main actor, as
/// the main actor's next task from elsewhere.
func reportFromAnyThread(_ diagnostic: Diagnostic) {
    if DispatchQueue.getSpecific(key: mainQueueMark) == true {
        MainActor.assumeIsolated { UIApplication.shared.diagnostics.report(diagnostic) }
    } else {
        Task { @MainActor in UIApplication.shared.diagnostics.report(diagnostic) }
    }
}
