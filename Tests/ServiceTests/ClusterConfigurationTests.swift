import Foundation
import Service
import Testing

/// `DATABASE_PREPARED`, `DATABASE_READ_URL`, `REDIS_SENTINELS`, `REDIS_MASTER_NAME` (issue 19).
@Suite struct ClusterConfigurationTests {
    @Test func theClusterVariablesHaveSingleServerDefaultsAndAreRead() throws {
        let defaults = try Configuration(environment: [:])
        #expect(defaults.databasePreparedStatements)
        #expect(defaults.databaseReadURL == nil)
        #expect(defaults.redisSentinel == nil)
        let set = try Configuration(environment: [
            "DATABASE_PREPARED": "off", "DATABASE_READ_URL": "postgresql://handoff_app@replica:5432/handoff",
            "REDIS_SENTINELS": "10.0.0.1:26379, [::1]:26380", "REDIS_MASTER_NAME": "handoff",
        ])
        #expect(!set.databasePreparedStatements)
        #expect(set.databaseReadURL == "postgresql://handoff_app@replica:5432/handoff")
        #expect(set.redisSentinel?.masterName == "handoff")
        #expect(set.redisSentinel?.addresses.map { "\($0.host)|\($0.port)" } == ["10.0.0.1|26379", "::1|26380"])
    }

    @Test(arguments: [
        (["DATABASE_PREPARED": "no"], "DATABASE_PREPARED", #"must be on or off (got "no")"#),
        (["DATABASE_READ_URL": "mysql://replica"], "DATABASE_READ_URL",
         "must be a postgresql:// URI or key=value connection string"),
        (["REDIS_SENTINELS": "10.0.0.1:26379"], "REDIS_MASTER_NAME", "must be set when REDIS_SENTINELS is"),
        (["REDIS_MASTER_NAME": "handoff"], "REDIS_SENTINELS", "must be set when REDIS_MASTER_NAME is"),
        (["REDIS_SENTINELS": "10.0.0.1", "REDIS_MASTER_NAME": "handoff"], "REDIS_SENTINELS",
         #"a Sentinel must be host:port (got "10.0.0.1")"#),
        (["REDIS_SENTINELS": "a:1,,b:2", "REDIS_MASTER_NAME": "handoff"], "REDIS_SENTINELS",
         #"a Sentinel must be host:port (got "")"#),
        (["REDIS_SENTINELS": "a:1", "REDIS_MASTER_NAME": "two words"], "REDIS_MASTER_NAME",
         "the master name must be a non-empty word"),
    ])
    func aBadClusterVariableIsRefusedByName(environment: [String: String], variable: String, problem: String) {
        #expect(throws: ConfigurationError(variable: variable, problem: problem)) {
            try Configuration(environment: environment)
        }
    }
}
