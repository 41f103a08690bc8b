package dev.levee.timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.InvalidConfigException;
import dev.levee.core.ManualTicker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Budget splits on the manual ticker. */
@SuppressWarnings("try")
class TimeoutBudgetTest {
    private static final long MS = 1_000_000L;

    private final ManualTicker ticker = new ManualTicker(123_456L);

    @Test
    void equalStepsWithRolloverHandUnusedTimeToLaterSteps() {
        TimeoutBudget budget = TimeoutBudget.of("budget", TimeoutBudgetConfig.equalSteps(Duration.ofMillis(900), 3, ticker));
        assertThat(budget.nextStepNanos()).isEqualTo(300 * MS);
        ticker.advance(100 * MS); // step 1 used only 100 of its 300 ms
        assertThat(budget.nextStepNanos()).isEqualTo(400 * MS); // 800 left over 2 steps
        ticker.advance(400 * MS);
        assertThat(budget.nextStepNanos()).isEqualTo(400 * MS); // the last step gets all that remains
        ticker.advance(400 * MS);
        assertThat(budget.nextStepNanos()).isZero(); // beyond the plan: what remains, nothing
        assertThat(budget.stepsTaken()).isEqualTo(4);
    }

    @Test
    void weightsSplitTheRemainderProportionally() {
        TimeoutBudget budget = TimeoutBudget.of("budget", TimeoutBudgetConfig.builder().total(Duration.ofMillis(1000))
                .weights(1, 3, 1).ticker(ticker).build());
        assertThat(budget.nextStepNanos()).isEqualTo(200 * MS);
        ticker.advance(50 * MS);
        assertThat(budget.nextStepNanos()).isEqualTo(712_500_000L); // 950 × 3/4
        ticker.advance(700 * MS);
        assertThat(budget.nextStepNanos()).isEqualTo(250 * MS);
    }

    @Test
    void withoutRolloverEachStepGetsItsFixedShareOrWhatRemains() {
        TimeoutBudget budget = TimeoutBudget.of("budget", TimeoutBudgetConfig.builder().total(Duration.ofMillis(1000))
                .weights(1, 3, 1).rollover(false).ticker(ticker).build());
        assertThat(budget.nextStepNanos()).isEqualTo(200 * MS);
        ticker.advance(50 * MS);
        assertThat(budget.nextStepNanos()).isEqualTo(600 * MS); // not 712.5: no rollover
        ticker.advance(850 * MS); // step 2 overran its share
        assertThat(budget.nextStepNanos()).isEqualTo(100 * MS); // share 200, only 100 remains
    }

    @Test
    void stepDeadlinesNeverPassTheBudgetAndTheBudgetNeverPassesTheCurrentDeadline() {
        TimeoutBudget budget;
        try (ContextScope scope = Deadline.afterNanos(300 * MS, ticker).attach()) {
            budget = TimeoutBudget.of("budget", TimeoutBudgetConfig.equalSteps(Duration.ofSeconds(10), 2, ticker));
        }
        assertThat(budget.remainingNanos()).isEqualTo(300 * MS);
        Deadline first = budget.nextStep();
        assertThat(first.remainingNanos()).isEqualTo(150 * MS);
        ticker.advance(100 * MS); // the first step took 100 of its 150 ms
        try (ContextScope step = budget.attachNextStep()) {
            // the last step gets all that remains, bounded by the outer deadline
            assertThat(Deadline.currentOrNull().remainingNanos()).isEqualTo(200 * MS);
        }
        assertThat(Deadline.currentOrNull()).as("closing the step's scope detaches its deadline").isNull();
        assertThat(budget.nextStep().remainingNanos()).isEqualTo(200 * MS); // extra step: what remains
        assertThat(budget.deadline().remainingNanos()).isEqualTo(200 * MS);
    }

    @Test
    void anExpiredBudgetHandsOutNothing() {
        TimeoutBudget budget = TimeoutBudget.of("budget", TimeoutBudgetConfig.equalSteps(Duration.ofMillis(10), 2, ticker));
        ticker.advance(20 * MS);
        assertThat(budget.nextStepNanos()).isZero();
        assertThat(budget.nextStep().remainingNanos()).isLessThanOrEqualTo(0);
    }

    @Test
    void configDefaultsAndBounds() {
        TimeoutBudgetConfig d = TimeoutBudgetConfig.builder().build();
        assertThat(d.total()).isEqualTo(Duration.ofSeconds(5));
        assertThat(d.steps()).isEqualTo(1);
        assertThat(d.rollover()).isTrue();
        String p = "TimeoutBudget: ";
        assertThatThrownBy(() -> TimeoutBudgetConfig.builder().total(Duration.ZERO).build())
                .isInstanceOf(InvalidConfigException.class).hasMessage(p + "total must be > 0 but was PT0S");
        assertThatThrownBy(() -> TimeoutBudgetConfig.builder().weights().build())
                .hasMessage(p + "weights.length must be in [1, 1000] but was 0");
        assertThatThrownBy(() -> TimeoutBudgetConfig.builder().weights(new double[1001]).build())
                .hasMessage(p + "weights.length must be in [1, 1000] but was 1001");
        assertThatThrownBy(() -> TimeoutBudgetConfig.builder().weights(1, 0).build())
                .hasMessage(p + "weights[1] must be > 0 and finite but was 0.0");
        assertThatThrownBy(() -> TimeoutBudgetConfig.builder().weights(Double.POSITIVE_INFINITY).build())
                .hasMessage(p + "weights[0] must be > 0 and finite but was Infinity");
        assertThatThrownBy(() -> TimeoutBudgetConfig.builder().ticker(null).build())
                .hasMessage(p + "ticker must be set (not null) but was null");
        assertThatThrownBy(() -> TimeoutBudgetConfig.equalSteps(Duration.ofSeconds(1), 0, ticker))
                .hasMessage(p + "steps must be in [1, 1000] but was 0");
        double[] weights = {1, 2};
        TimeoutBudgetConfig c = TimeoutBudgetConfig.builder().weights(weights).build();
        weights[0] = 99;
        assertThat(c.weights()).containsExactly(1, 2); // defensive copy
    }
}
