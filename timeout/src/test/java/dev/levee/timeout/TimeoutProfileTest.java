package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The per-dependency timeout profile. */
class TimeoutProfileTest {

    @Test
    void defaults() {
        TimeoutProfile p = TimeoutProfile.builder("db").build();
        assertThat(p.name()).isEqualTo("db");
        assertThat(p.connect()).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.read()).isEqualTo(Duration.ofSeconds(5));
        assertThat(p.write()).isEqualTo(Duration.ofSeconds(5));
        assertThat(p.total()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void bounds() {
        String p = "TimeoutProfile 'db': ";
        assertThatThrownBy(() -> TimeoutProfile.builder(" ").build()).isInstanceOf(InvalidConfigException.class)
                .hasMessage("TimeoutProfile: name must be a non-blank string but was ' '");
        assertThatThrownBy(() -> TimeoutProfile.builder("db").total(Duration.ZERO).build())
                .hasMessage(p + "total must be > 0 but was PT0S");
        assertThatThrownBy(() -> TimeoutProfile.builder("db").connect(Duration.ofMillis(-1)).build())
                .hasMessage(p + "connect must be > 0 but was PT-0.001S");
        assertThatThrownBy(() -> TimeoutProfile.builder("db").read(null).build())
                .hasMessage(p + "read must be set (not null) but was null");
        assertThatThrownBy(() -> TimeoutProfile.builder("db").write(Duration.ZERO).build())
                .hasMessage(p + "write must be > 0 but was PT0S");
        assertThatThrownBy(() -> TimeoutProfile.builder("db").connect(Duration.ofSeconds(11)).build())
                .hasMessage(p + "connect must be <= total (PT10S) but was PT11S");
        assertThatThrownBy(() -> TimeoutProfile.builder("db").read(Duration.ofSeconds(11)).build())
                .hasMessage(p + "read must be <= total (PT10S) but was PT11S");
        assertThatThrownBy(() -> TimeoutProfile.builder("db").write(Duration.ofSeconds(11)).build())
                .hasMessage(p + "write must be <= total (PT10S) but was PT11S");
        TimeoutProfile.builder("db").connect(Duration.ofSeconds(10)).read(Duration.ofSeconds(10))
                .write(Duration.ofSeconds(10)).build(); // equal to total is fine
    }

    @Test
    void mapsOntoIntAndSecondApis() {
        TimeoutProfile p = TimeoutProfile.builder("db").connect(Duration.ofMillis(250)).read(Duration.ofNanos(10))
                .write(Duration.ofMillis(1500)).total(Duration.ofMillis(2001)).build();
        assertThat(p.connectMillis()).isEqualTo(250);
        assertThat(p.readMillis()).isEqualTo(1); // never 0, which means "infinite" to most clients
        assertThat(p.writeMillis()).isEqualTo(1500);
        assertThat(p.totalSecondsRoundedUp()).isEqualTo(3);
        assertThat(TimeoutProfile.builder("x").total(Duration.ofSeconds(2)).connect(Duration.ofSeconds(1))
                .read(Duration.ofSeconds(1)).write(Duration.ofSeconds(1)).build().totalSecondsRoundedUp()).isEqualTo(2);
        assertThat(TimeoutProfile.builder("x").total(Duration.ofDays(365 * 100)).build().totalSecondsRoundedUp())
                .isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void withinADeadlineCutsEveryTimeoutToWhatRemains() {
        ManualTicker ticker = new ManualTicker();
        TimeoutProfile p = TimeoutProfile.builder("api").build();
        TimeoutProfile cut = p.within(Deadline.afterNanos(3_000_000_000L, ticker));
        assertThat(cut.connect()).isEqualTo(Duration.ofSeconds(2));
        assertThat(cut.read()).isEqualTo(Duration.ofSeconds(3));
        assertThat(cut.write()).isEqualTo(Duration.ofSeconds(3));
        assertThat(cut.total()).isEqualTo(Duration.ofSeconds(3));
        assertThat(p.within(null)).isSameAs(p);
        assertThat(p.within(Deadline.afterNanos(60_000_000_000L, ticker))).isSameAs(p);
        assertThat(p.within(Deadline.after(p.total(), ticker))).as("exactly the total left: unchanged").isSameAs(p);
        assertThat(p.within(Deadline.afterNanos(-5, ticker)).total()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void appliesToTheJdkHttpClient() {
        TimeoutProfile p = TimeoutProfile.builder("api").connect(Duration.ofMillis(300)).total(Duration.ofSeconds(6))
                .build();
        HttpClient client = p.applyTo(HttpClient.newBuilder()).build();
        assertThat(client.connectTimeout()).contains(Duration.ofMillis(300));
        HttpRequest request = p.applyTo(HttpRequest.newBuilder(URI.create("http://localhost/"))).GET().build();
        assertThat(request.timeout()).contains(Duration.ofSeconds(6));
        assertThat(p.toTimeoutConfig().timeout()).isEqualTo(Duration.ofSeconds(6));
    }
}
