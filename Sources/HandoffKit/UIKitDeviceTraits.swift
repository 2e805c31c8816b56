#if canImport(UIKit) && !os(watchOS) && !os(visionOS)
import UIKit

/// The device's traits on iOS: `UIScreen.main.bounds` in points (what Safari reports as `screen.width`/`height`)
/// and the rest from Foundation (`DeviceTraits.current`).
public struct UIKitDeviceTraits: DeviceTraitsSource {
    public init() {}

    public func traits() async -> DeviceTraits? {
        let size = await MainActor.run { UIScreen.main.bounds.size }
        return DeviceTraits.current(screenWidth: Int(size.width.rounded()), screenHeight: Int(size.height.rounded()))
    }
}
#endif
