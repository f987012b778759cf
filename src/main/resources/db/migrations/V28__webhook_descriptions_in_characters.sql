-- A webhook endpoint's description holds 200 characters as Herald counts them (api.TextLength: code points), as
-- migration 8 made of names and URLs: on H2, whose CHARACTER VARYING counts UTF-16 units, a description of 101 to 200
-- emoji failed its insert (a 500). MariaDB's utf8mb4 column already counts code points: the same definition again
-- changes nothing there. Expand: the previous version writes descriptions of at most 200 code points, which fit.
ALTER TABLE webhook_endpoints ${changeColumn} description ${characters:200};
