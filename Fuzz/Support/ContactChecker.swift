// Shared by the fuzz targets that produce HID events from device input.
import EventServer
import HID

/// Checks the HID events a translator produced, in order.
struct ContactChecker {
    private var down: Set<UInt32> = []
    private var ended: Set<UInt32> = []
    private var keysDown: Set<UInt32> = []
    private var lastTime = -Double.infinity
    private let screen = Screen.standard

    mutating func check(_ events: [HIDEvent]) {
        for event in events {
            precondition(event.timestamp >= lastTime, "time went back from \(lastTime) to \(event.timestamp)")
            lastTime = event.timestamp
            switch event {
            case .digitizer(let frame):
                var seen: Set<UInt32> = []
                for contact in frame.contacts {
                    precondition(seen.insert(contact.identifier).inserted, "contact \(contact.identifier) twice in one frame")
                    precondition(contact.x.isFinite && contact.y.isFinite, "a position that is not finite")
                    precondition((0...screen.width).contains(contact.x) && (0...screen.height).contains(contact.y), "a contact off the screen")
                    precondition(contact.force.isFinite && contact.majorRadius.isFinite, "a force or radius that is not finite")
                    precondition(!ended.contains(contact.identifier), "contact \(contact.identifier) came back after it ended")
                    switch contact.phase {
                    case .began:
                        precondition(down.insert(contact.identifier).inserted, "contact \(contact.identifier) began twice")
                    case .moved, .stationary:
                        precondition(down.contains(contact.identifier), "contact \(contact.identifier) \(contact.phase) before it began")
                    case .ended, .cancelled:
                        precondition(down.remove(contact.identifier) != nil, "contact \(contact.identifier) ended before it began")
                        ended.insert(contact.identifier)
                    }
                }
            case .button(let button):
                let key = UInt32(button.usagePage) << 16 | UInt32(button.usage)
                if button.isDown {
                    precondition(keysDown.insert(key).inserted, "a key went down twice")
                } else {
                    precondition(keysDown.remove(key) != nil, "a key came up that was not down")
                }
            case .motion:
                preconditionFailure("an evdev translator made a motion event")
            }
        }
    }

    func checkNothingIsDown() {
        precondition(down.isEmpty, "contacts \(down) left down at the end of input")
        precondition(keysDown.isEmpty, "keys left down at the end of input")
    }
}

