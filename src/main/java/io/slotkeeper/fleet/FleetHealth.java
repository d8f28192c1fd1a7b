package io.slotkeeper.fleet;

import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * A health with one child per target of the fleet, read from the fleet at each request: a
 * target that joins shows, one that leaves goes.
 */
public final class FleetHealth implements CompositeHealthContributor {

	private final Fleet fleet;

	private final Predicate<Target> which;

	private final Function<Target, Health> health;

	private FleetHealth(Fleet fleet, Predicate<Target> which, Function<Target, Health> health) {
		this.fleet = fleet;
		this.which = which;
		this.health = health;
	}

	/**
	 * The health of some targets of a fleet.
	 * @param fleet the fleet
	 * @param which the targets that have a child
	 * @param health a target's health
	 * @param none the health when no target has a child and none can join
	 * @return the contributor
	 */
	public static HealthContributor of(Fleet fleet, Predicate<Target> which, Function<Target, Health> health,
			Health none) {
		if (!fleet.changes() && fleet.all().stream().noneMatch(which)) {
			return (HealthIndicator) () -> none;
		}
		return new FleetHealth(fleet, which, health);
	}

	@Override
	public HealthContributor getContributor(String name) {
		return this.fleet.find(name).filter(this.which).map(this::child).orElse(null);
	}

	@Override
	public Stream<HealthContributors.Entry> stream() {
		return this.fleet.all().stream().filter(this.which).map((target) -> new Entry(target.name(), child(target)));
	}

	private HealthIndicator child(Target target) {
		return () -> this.health.apply(target);
	}

}
