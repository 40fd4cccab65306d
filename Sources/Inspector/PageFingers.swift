import HID
import UIKit

/// The page's fingers on the screen, by the page's pointer number, with the
/// contact identifier each goes by: turns the page's touch messages into
/// digitizer frames that carry every finger down, the others stationary,
/// as a touch screen reports them.
struct PageFingers {
    private var fingers: [Int: UInt32] = [:]
    private var lastLocations: [UInt32: CGPoint] = [:]
    private var nextFinger: UInt32 = 1

    var isEmpty: Bool { fingers.isEmpty }

    /// The frame for pointer `pointer` in `phase` at `location` (screen points).
    mutating func frame(pointer: Int, phase: DigitizerContact.Phase, at location: CGPoint) throws -> [DigitizerContact] {
        guard location.x.isFinite, location.y.isFinite else {
            throw InspectorError("a touch needs finite coordinates")
        }
        let finger: UInt32
        switch phase {
        case .began:
            guard fingers[pointer] == nil else { throw InspectorError("pointer \(pointer) is already down") }
            finger = nextFinger
            nextFinger &+= 1
            fingers[pointer] = finger
        default:
            guard let down = fingers[pointer] else {
                // A page reloaded mid-gesture sends the rest of a drag it
                // never began here: nothing is down for it.
                throw InspectorError("pointer \(pointer) is not down (was the page reloaded mid-gesture?); its \(phase) was ignored")
            }
            finger = down
            if phase == .ended || phase == .cancelled { fingers[pointer] = nil }
        }
        var contacts = [DigitizerContact(identifier: finger, phase: phase, x: location.x, y: location.y)]
        for (_, other) in fingers where other != finger {
            if let last = lastLocations[other] {
                contacts.append(DigitizerContact(identifier: other, phase: .stationary, x: last.x, y: last.y))
            }
        }
        lastLocations[finger] = phase == .ended || phase == .cancelled ? nil : location
        return contacts
    }

    /// Lifts every finger, as cancelled: the frame that does it, or nil
    /// when none is down.
    mutating func liftAll() -> [DigitizerContact]? {
        guard !fingers.isEmpty else { return nil }
        var contacts: [DigitizerContact] = []
        for (_, finger) in fingers {
            let last = lastLocations[finger] ?? .zero
            contacts.append(DigitizerContact(identifier: finger, phase: .cancelled, x: last.x, y: last.y))
        }
        fingers = [:]
        lastLocations = [:]
        return contacts
    }
}
