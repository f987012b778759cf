-- Its totals were copied into interaction_daily_totals by migration 4.
DROP TABLE IF EXISTS interaction_daily_counts;
