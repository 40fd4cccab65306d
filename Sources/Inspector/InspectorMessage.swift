import Foundation
import HID
import UIKit

/// A message from the page, read from its JSON text. Anything else (not
/// JSON, not an object, an unknown type, a missing or wrong field) is an
/// ``InspectorError`` that says what was wrong.
///
/// ```
/// {"type":"touch","pointer":1,"phase":"began","x":120,"y":300}   a finger, in screen points
/// {"type":"scene","name":"seed-b-traced-hierarchy"}               switch scenes
/// {"type":"frameShown"}                                           the page drew the last frame
/// {"type":"tree"}                                                 describe the view tree again
/// ```
enum InspectorMessage: Equatable {
    case touch(pointer: Int, phase: DigitizerContact.Phase, location: CGPoint)
    case scene(String)
    case frameShown
    case tree

    /// The longest message the page sends is a touch, well under this.
    static let maximumLength = 4_096

    init(parsing text: String) throws {
        guard text.utf8.count <= Self.maximumLength else {
            throw InspectorError("malformed message: \(text.utf8.count) bytes is longer than any message the inspector takes (\(Self.maximumLength))")
        }
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw InspectorError("malformed message: not a JSON object: \(Self.excerpt(text))")
            }
            object = parsed
        } catch let error as InspectorError {
            throw error
        } catch {
            throw InspectorError("malformed message: not JSON: \(Self.excerpt(text))")
        }
        guard let type = object["type"] as? String else {
            throw InspectorError("malformed message: no \"type\": \(Self.excerpt(text))")
        }
        switch type {
        case "touch":
            let phases: [String: DigitizerContact.Phase] = ["began": .began, "moved": .moved, "ended": .ended, "cancelled": .cancelled]
            guard let name = object["phase"] as? String, let phase = phases[name] else {
                throw InspectorError("malformed touch: \"phase\" must be began, moved, ended or cancelled")
            }
            let x = try Self.number(object, "x"), y = try Self.number(object, "y")
            let pointer = (object["pointer"] as? NSNumber)?.intValue ?? 1
            self = .touch(pointer: pointer, phase: phase, location: CGPoint(x: x, y: y))
        case "scene":
            guard let name = object["name"] as? String else { throw InspectorError("malformed scene message: no \"name\"") }
            self = .scene(name)
        case "frameShown":
            self = .frameShown
        case "tree":
            self = .tree
        default:
            throw InspectorError("unknown message type \"\(type)\" (touch, scene, frameShown, tree)")
        }
    }

    private static func number(_ object: [String: Any], _ key: String) throws -> Double {
        guard let value = (object[key] as? NSNumber)?.doubleValue else {
            throw InspectorError("malformed touch: \"\(key)\" must be a number")
        }
        guard value.isFinite else { throw InspectorError("malformed touch: \"\(key)\" must be finite") }
        return value
    }

    private static func excerpt(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(80)) + "…"
    }
}
