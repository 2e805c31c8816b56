import Redis

extension EnvironmentReader {
    /// `on` or `off` (unset: `fallback`).
    func onOff(_ name: String, default fallback: Bool) throws -> Bool {
        switch text(name) {
        case nil: return fallback
        case "on": return true
        case "off": return false
        case let other?: throw ConfigurationError(variable: name, problem: "must be on or off (got \"\(other)\")")
        }
    }

    /// The Sentinel list in `name` with the master name in `masterName`: both set, or neither (nil).
    func redisSentinel(_ name: String, masterName: String) throws -> RedisSentinelConfiguration? {
        switch (text(name), text(masterName)) {
        case (nil, nil):
            return nil
        case (nil, _?):
            throw ConfigurationError(variable: name, problem: "must be set when \(masterName) is")
        case (_?, nil):
            throw ConfigurationError(variable: masterName, problem: "must be set when \(name) is")
        case (let list?, let master?):
            do {
                return try RedisSentinelConfiguration(sentinels: list, masterName: master)
            } catch let error as RedisError {
                let variable = error.message.hasPrefix("the master name") ? masterName : name
                throw ConfigurationError(variable: variable, problem: error.message)
            }
        }
    }
}
