/// A GPIO input line's internal pull resistor, as the kernel names the
/// choices. A button's setting, read by the configuration and applied by `GPIO`.
public enum Bias: String, Sendable, CaseIterable {
    /// Leave whatever the firmware or device tree set.
    case asIs = "as-is"
    case disable
    case pullUp = "pull-up"
    case pullDown = "pull-down"
}
